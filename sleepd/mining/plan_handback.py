"""Whether a plan a session ends on came back as the first request of another session.

Claude Code (2.1.3x and after), when the person takes the agent's plan with "Yes, and
clear context", answers the plan tool (`ExitPlanMode`) with a refusal and a stop, and
starts a new session whose first message is "Implement the following plan:" and the
plan's text (PackmindHub/context-evaluator's public history opens most of its sessions
so). Read alone, the planning session ends on a refused call the person left: an
abandoned episode, and a refusal that made it look like a failure worth replaying. The new
session is found by its start, in the same project and within a few minutes of the
refusal, and by the plan's first line in its first request.
"""

from __future__ import annotations

import posixpath
from datetime import UTC, timedelta
from pathlib import PurePosixPath

from sqlalchemy import select
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.episodes import EpisodeDraft
from sleepd.mining.json_text import json_value
from sleepd.mining.loading import SessionWork
from sleepd.mining.signals import refused_plan, written_paths
from sleepd.mining.turns import PLAN_ACCEPTED
from sleepd.store.models import Event, Session

#: How long after the refusal the new session may start: it starts at once, and a
#: session started by hand later with the same plan pasted is no hand-back.
HANDED_BACK_WITHIN = timedelta(minutes=5)
#: Candidate sessions looked at, at most (few start so soon after a refusal).
MAX_CANDIDATES = 20


def plan_handed_back_elsewhere(db: DbSession, work: SessionWork, draft: EpisodeDraft) -> bool:
    """Whether the episode ends on a refused plan that another session of the project,
    started within `HANDED_BACK_WITHIN` of the refusal, opens with."""
    refused = refused_plan(draft)
    if refused is None:
        return False
    call, seqs = refused
    refusal = next((e for e in draft.events if e.seq == min(seqs)), None)
    if refusal is None or refusal.ts is None:
        return False
    plan = json_value(call.text)
    text = plan.get("plan") if isinstance(plan, dict) else None
    lines = text.splitlines() if isinstance(text, str) else []
    first_line = next((line.strip() for line in lines if line.strip()), "")
    if len(first_line) < 8:
        return False  # too little of the plan to know it again
    # the store keeps naive UTC times
    started = refusal.ts.astimezone(UTC).replace(tzinfo=None) if refusal.ts.tzinfo else refusal.ts
    query = (
        select(Session.id)
        .where(
            Session.id != work.id,
            Session.started_at >= started - timedelta(seconds=5),
            Session.started_at <= started + HANDED_BACK_WITHIN,
        )
        .order_by(Session.started_at)
        .limit(MAX_CANDIDATES)
    )
    if work.project_path is not None:
        query = query.where(Session.project_path == work.project_path)
    for session_id in db.scalars(query):
        opening = db.scalars(
            select(Event.text)
            .where(Event.session_id == session_id, Event.kind == "user_prompt")
            .order_by(Event.seq)
            .limit(1)
        ).first()
        if opening and PLAN_ACCEPTED.match(opening) and first_line in opening:
            return True
    return False


def only_planned(draft: EpisodeDraft, project_path: str | None) -> bool:
    """Whether the episode wrote nothing but its plan. Claude Code's plan mode writes the
    plan to a Markdown file in its `plans` folder (`~/.claude/plans/<name>.md`, or under
    the configured folder): a Markdown file in a `plans` folder that lies in a `.claude`
    folder or outside the project. Any other write is work (in the project, in a linked
    worktree or a sibling folder of it, anywhere): an episode that did work before its
    agent planned the next step is a request of its own, whatever became of the plan;
    one that only planned is one request with the episode its plan was taken into."""
    root = _posix(project_path) if project_path else None
    for event in draft.events:
        if event.kind != "tool_call":
            continue
        for path in written_paths(event.tool_name, event.text):
            if not _plan_file(_posix(path), root):
                return False
    return True


def _plan_file(path: PurePosixPath, root: PurePosixPath | None) -> bool:
    if not path.is_absolute() or path.suffix.lower() != ".md":
        return False
    folder = path.parent
    if folder.name.lower() != "plans":
        return False
    in_config = folder.parent.name.lower() == ".claude"
    return in_config or root is None or not path.is_relative_to(root)


def _posix(path: str) -> PurePosixPath:
    """A path to compare by its parts: Windows separators read as `/`, a drive's letter,
    in lower case, as the root's first part, and `..` folded."""
    path = path.strip().replace("\\", "/")
    if len(path) > 1 and path[1] == ":":
        path = "/" + path[0].lower() + path[1:]
    return PurePosixPath(posixpath.normpath(path or "."))
