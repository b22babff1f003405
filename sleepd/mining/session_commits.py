"""The commits a session had made before a request, as git's own output in it shows them.

A replay starts in a checkout of the commit the episode began from (`replay_site`), which
holds what the session committed before the request, but not which of those commits were
the session's work. The person's agent knew: it had made them. A request over that work
("/simplify", "review the changes", "can you squash these") reads `git diff` on a clean
tree in the checkout, and a replaying agent told nothing takes the work to be missing.
The task's context names them ("322747c Hint at --force-blind on receive-pack lease
failures"), read from the summary line git prints for each commit it makes
("[main 322747c] Hint at …"), by the agent's shell or by the person's own `! git commit`.
A subagent's commits are in a session of their own and are not read; the commits a
conversation made in an earlier file, before it was resumed or forked into this one,
are, by their time.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session as DbSession

from sleepd.mining.carried import conversation_mates
from sleepd.mining.commands import LOCAL_COMMAND_TAGS
from sleepd.store.fastread import as_utc
from sleepd.store.models import Episode, Event

#: The most commits a task names (the newest), and the most of a subject it keeps.
MAX_COMMITS = 10
MAX_SUBJECT_CHARS = 120

#: git's line for a commit it made ("[main 322747c] Hint at …", "[soph/fix (root-commit)
#: 1a2b3c4] init", "[detached HEAD 9f8e7d6] wip"): the short id and the subject.
_MADE = re.compile(r"^\[[^\]\n]{1,200}? (?:\(root-commit\) )?([0-9a-f]{7,40})\] ([^\n]+)$", re.M)
#: Episodes read per query.
_CHUNK = 200


def commits_before(db: DbSession, episodes: Sequence[Episode]) -> dict[int, list[str]]:
    """Per episode (by id): the commits its session had made before its request, oldest
    first, each as "short-id subject", the newest `MAX_COMMITS` of them; episodes whose
    session had made none are left out."""
    found: dict[int, list[str]] = {}
    for start in range(0, len(episodes), _CHUNK):
        chunk = episodes[start : start + _CHUNK]
        ranges = [and_(Event.session_id == e.session_id, Event.seq < e.start_seq) for e in chunk]
        rows = db.execute(
            select(Event.session_id, Event.seq, Event.text)
            .where(
                or_(*ranges),
                or_(Event.kind == "tool_result", Event.text.startswith(LOCAL_COMMAND_TAGS[1])),
                Event.text.contains("] "),
            )
            .order_by(Event.session_id, Event.seq)
        )
        made: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for session_id, seq, text in rows:
            made[session_id] += [(seq, line) for line in _commits_in(text)]
        earlier = _made_in_earlier_files(db, {e.session_id for e in chunk})
        for episode in chunk:
            began = as_utc(episode.started_at)
            lines = [
                line
                for ts, line in earlier.get(episode.session_id, [])
                if began is not None and ts < began
            ]
            lines += [
                line for seq, line in made.get(episode.session_id, []) if seq < episode.start_seq
            ]
            if lines:
                found[episode.id] = list(dict.fromkeys(lines))[-MAX_COMMITS:]
    return found


def _made_in_earlier_files(
    db: DbSession, session_ids: set[int]
) -> dict[int, list[tuple[datetime, str]]]:
    """Per session: the commits its conversation made in the other files it went on in
    (resumed or forked into a new file), oldest first, each with its time: they came
    before the session's requests by time, not by place."""
    mates = conversation_mates(db, session_ids)
    if not mates:
        return {}
    rows = db.execute(
        select(Event.session_id, Event.ts, Event.text)
        .where(
            Event.session_id.in_(list(mates)),
            Event.ts.is_not(None),
            or_(Event.kind == "tool_result", Event.text.startswith(LOCAL_COMMAND_TAGS[1])),
            Event.text.contains("] "),
        )
        .order_by(Event.ts, Event.id)
    )
    earlier: dict[int, list[tuple[datetime, str]]] = defaultdict(list)
    for session_id, ts, text in rows:
        when = as_utc(ts)
        if when is None:
            continue
        for line in _commits_in(text):
            for owner in mates[session_id]:
                earlier[owner].append((when, line))
    return earlier


def _commits_in(text: str | None) -> list[str]:
    """The commits git's summary lines in an output name, each as "short-id subject" (the
    person's own command's output opens with its tag, on git's line)."""
    output = (text or "").removeprefix(LOCAL_COMMAND_TAGS[1])
    return [
        f"{sha[:7]} {subject.strip()[:MAX_SUBJECT_CHARS]}" for sha, subject in _MADE.findall(output)
    ]
