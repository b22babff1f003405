"""The conversation a session carries on from before it began.

A person who resumes or forks a conversation goes on typing where it stood ("now the
other page too", "that broke the build"). Read alone, the new session's first turn has
nothing before it and opens a request of its own, which a follow-up or a correction is
not. The conversation before is found in the first of these that holds it:

* copies ahead of the new work, in the new session's own file: Claude Code's resume into
  a new file (1.0.x, and some 2.x builds), the desktop app's continuation, Codex's fork.
  The harvest keeps them as context, `history:<kind>` meta (`store.resumed`, `harvesters`);
* the record the session's first record answers where it is not the session's own
  (`meta["continues"]`, `harvesters.claude_code`): the old file's last record for a 1.0.x
  resume written without the conversation; the last copy for a `/fork`, whose copies are
  stored with the session they came from, or for a file that replays an earlier session's
  records under their own id. It is looked for among the sessions of the same source in
  the same project, or one inside or around it;
* the session a fork came from (`parent_session_id`), up to the fork's first event by
  time.

A reading that reaches the session's start gets the last of that conversation (at most
`CARRIED_EVENTS` events), each read as the event it copies, as a lead its first turns are
read against (`episodes.segment`'s `carried`), read back through a resume of a resume
whose files hold none of it. What the lead says is never this session's work: its
failures and requests stay the other session's.

The same reading names the session the conversation began in
(`Session.conversation_session_id`, `join_conversations`): recurrence counts one
conversation once, and a new file's tasks see what its earlier files committed or left
uncommitted (`conversation_mates`). A session read before the file it came from was
stored is read again once a pass stores that file (`continuations_found`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from sqlalchemy import (
    ColumnElement,
    and_,
    case,
    func,
    literal,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session as DbSession

from harvesters.codex import GOAL_SET
from sleepd.mining.episodes import EventView
from sleepd.mining.late_exits import with_late_exits
from sleepd.mining.loading import (
    AGENT_BLOCK,
    UNREAD_RECORD,
    SessionWork,
    event_views,
    lead_start,
    read_again_next_pass,
)
from sleepd.store.models import Episode, Event, Session
from sleepd.store.resumed import HISTORY_PREFIX, is_history

#: The most of the conversation before a session read as its lead. More than a resumed
#: pass's lead (`loading.LEAD_EVENTS`): a lead that opens inside a request reads that
#: request's turns with nothing before them, and the request the new session answers is
#: then another; a conversation carried on is read this way only on readings that reach
#: the session's start, not on every pass.
CARRIED_EVENTS = 2000
#: What a copy's kind may be; any other name after the prefix is a meta record's type.
_KINDS = frozenset(
    (
        *("user_prompt", "assistant_text", "thinking", "tool_call", "tool_result"),
        *("error", "interrupt", "summary", "meta"),
    )
)
#: Record types the harvest gives events of a kind other than meta (a copy keeps the type,
#: not the kind: `history:<raw_type or kind>`).
_TYPED_KINDS = {
    "steering": "user_prompt",
    GOAL_SET: "user_prompt",
    "persisted-output": "tool_result",
    "summary": "summary",
    "compact_summary": "summary",
    "compacted": "summary",
    "compaction": "summary",
    "compaction_summary": "summary",
    "error": "error",
    "stream_error": "error",
}
#: Codex's record of a turn it ended early: the person's stop, unless Codex's own
#: (`harvesters.codex`: a review thread's end is meta, a spent budget an error).
_TURN_ABORTED = "turn_aborted"


def is_copy(event: EventView) -> bool:
    return is_history(event.raw_type)


def as_lived(event: EventView) -> EventView:
    """A copy read as the event it copies: its kind, and its record type where it had
    one. (Whether a tool result failed is not kept with a copy: its failure was counted
    where it happened, and the lead reads only what was said and done.)"""
    if not is_copy(event):
        return event
    name = (event.raw_type or "").removeprefix(HISTORY_PREFIX)
    if name in _KINDS:
        return replace(event, kind=name, raw_type=None, is_meta=name == "meta")
    kind = _TYPED_KINDS.get(name, "meta")
    if name == _TURN_ABORTED:
        kind = (
            "meta"
            if event.text == "review_ended"
            else "error"
            if event.text.startswith("turn stopped")
            else "interrupt"
        )
    elif name.startswith(AGENT_BLOCK):
        kind = UNREAD_RECORD  # a block of the agent's message the harvest does not know
    return replace(event, kind=kind, raw_type=name, is_meta=kind == "meta")


@dataclass(slots=True)
class Split:
    """Each session's own events, the conversation it carries on (empty for most), and,
    for each session whose reading reaches its start, the session that conversation was
    carried from (None: it carries none on)."""

    own: dict[int, list[EventView]] = field(default_factory=dict)
    carried: dict[int, list[EventView]] = field(default_factory=dict)
    carried_from: dict[int, int | None] = field(default_factory=dict)


def split_carried(
    db: DbSession, work: Sequence[SessionWork], events: Mapping[int, list[EventView]]
) -> Split:
    """Each session's own events, and the conversation it carries on.

    A session's own events never include a copy at its head: copies read among them were
    meta, and now they are the lead."""
    split = Split()
    own, carried = split.own, split.carried
    linked: list[SessionWork] = []
    for item in work:
        loaded = events.get(item.id, [])
        own[item.id], carried[item.id] = loaded, []
        if item.is_subagent:
            continue
        head, rest = _copied_head(loaded)
        if head and rest:
            lead = [as_lived(e) for e in head[-CARRIED_EVENTS:]]
            own[item.id], carried[item.id] = rest, lead
            split.carried_from[item.id] = _copied_from(db, item, head)
        elif loaded and lead_start(item) == 0:
            # a reading that holds the session's start, with nothing carried in its file
            linked.append(item)
            split.carried_from[item.id] = None
    # the record the session's first record answers, where it is known, marks the point
    # exactly; a fork without one is cut by time
    for session_id, record in _continued_records(db, [item.id for item in linked]).items():
        carried[session_id] = _lead_through(db, *record)
        split.carried_from[session_id] = record[0]
    for item in linked:
        if item.kind == "fork" and item.parent_session_id is not None:
            if not carried[item.id]:
                carried[item.id] = _forked_from(db, item.parent_session_id, own[item.id])
            # a branch of that session's conversation, whatever of it the fork's reading
            # holds
            if split.carried_from.get(item.id) is None:
                split.carried_from[item.id] = item.parent_session_id
    return split


def continuations_found(db: DbSession, fresh: Collection[int]) -> int:
    """Mark to be read again, from their start, the sessions read before that carry on a
    conversation no stored session held when they were read, where one of the `fresh`
    sessions (those with new events this pass) now holds it: the new file of a resume,
    or a fork, harvested and read before the file it came from (a history copied in, a
    folder added later). Read again, they read on from that conversation, and the request
    it ended in is judged over both files (`read_back`). Only the fresh sessions are
    looked in, so a resume whose first file is gone costs a pass little. Returns how
    many."""
    if not fresh:
        return 0
    waiting = select(Session.id).where(
        Session.kind != "subagent",
        Session.mined_through_seq > 0,
        Session.conversation_session_id.is_(None),
        Session.id.not_in(list(fresh)),
    )
    places = db.execute(
        select(Session.id, Session.source, Session.project_path).where(Session.id.in_(list(fresh)))
    ).all()
    found: set[int] = set()
    for session_id, source, project, record in db.execute(
        waiting.with_only_columns(
            Session.id, Session.source, Session.project_path, Session.meta["continues"]
        ).where(Session.meta["continues"].as_string().is_not(None))
    ):
        near = [i for i, s, p in places if s == source and _near(project, p)]
        if near and isinstance(record, str) and record and _held_in(db, near, record):
            found.add(session_id)
    # a fork whose session it was forked from is stored now, or grew (Codex names it in
    # its header: the harvest links it once that session is stored)
    found.update(
        db.scalars(
            waiting.where(Session.kind == "fork", Session.parent_session_id.in_(list(fresh)))
        )
    )
    if found:
        read_again_next_pass(db, Session.id.in_(sorted(found)))
    return len(found)


def _held_in(db: DbSession, session_ids: list[int], record: str) -> bool:
    """Whether one of these sessions holds the record as its own (index probes)."""
    return (
        db.execute(
            select(Event.id)
            .where(
                Event.session_id.in_(session_ids),
                Event.external_id.in_(_ids_of(record)),
                or_(Event.raw_type.is_(None), ~Event.raw_type.startswith(HISTORY_PREFIX)),
            )
            .limit(1)
        ).first()
        is not None
    )


def _near(project: str | None, other: str | None) -> bool:
    """The same project, or one inside the other (`_continued_records` looks there)."""
    if project is None or other is None:
        return True
    return project == other or other.startswith(f"{project}/") or project.startswith(f"{other}/")


def join_conversations(db: DbSession, carried_from: Mapping[int, int | None]) -> set[int]:
    """Name, for each session, the session its conversation began in (`Session.
    conversation_session_id`: the first of the chain of sessions it carries on), or none
    where it carries none on. A chain is followed through the sessions decided here and
    through those decided before; sessions that named a session now found to carry on
    another are named after that one's beginning too. Returns the clusters of the
    episodes whose sessions changed conversation: their session counts change
    (`recurrence`)."""
    if not carried_from:
        return set()
    stored: dict[int, int | None] = {}

    def stored_origin(session_id: int) -> int | None:
        if session_id not in stored:
            stored[session_id] = db.scalar(
                select(Session.conversation_session_id).where(Session.id == session_id)
            )
        return stored[session_id]

    def began_in(session_id: int) -> int | None:
        seen = {session_id}
        origin = carried_from[session_id]
        if origin is None:
            return None
        while origin not in seen:
            seen.add(origin)
            further = carried_from[origin] if origin in carried_from else stored_origin(origin)
            if further is None:
                return origin
            origin = further
        # a chain that comes back to itself (files naming each other): its sessions are one
        # conversation, named by its first session, so none is looked at again each pass
        # (`continuations_found`)
        return min(seen)

    now = dict(
        db.execute(
            select(Session.id, Session.conversation_session_id).where(
                Session.id.in_(list(carried_from))
            )
        ).all()
    )
    changed: list[int] = []
    for session_id in carried_from:
        root = began_in(session_id)
        if now.get(session_id) == root:
            continue
        db.execute(
            update(Session)
            .where(Session.id == session_id)
            .values(conversation_session_id=root)
            .execution_options(synchronize_session=False)
        )
        changed.append(session_id)
        # the sessions that named this one as where their conversation began
        followers = list(
            db.scalars(select(Session.id).where(Session.conversation_session_id == session_id))
        )
        if followers and root is not None:
            db.execute(
                update(Session)
                .where(Session.id.in_(followers))
                .values(conversation_session_id=root)
                .execution_options(synchronize_session=False)
            )
            changed += followers
    if not changed:
        return set()
    return set(
        db.scalars(
            select(Episode.cluster_id)
            .where(Episode.session_id.in_(changed), Episode.cluster_id.is_not(None))
            .distinct()
        )
    )


def conversation_mates(db: DbSession, session_ids: set[int]) -> dict[int, list[int]]:
    """The other sessions of the conversations these sessions carry on (resumed or forked
    into a new file, `Session.conversation_session_id`), each with the sessions among
    `session_ids` whose conversation holds it. What the conversation did in its earlier
    files came before the session's requests as much as what it did there; only their
    times say how they fall (`working_tree`, `session_commits`)."""
    roots: dict[int, int] = {
        session_id: root
        for session_id, root in db.execute(
            select(Session.id, Session.conversation_session_id).where(
                Session.id.in_(session_ids), Session.conversation_session_id.is_not(None)
            )
        )
        if root is not None
    }
    if not roots:
        return {}
    mates: dict[int, list[int]] = defaultdict(list)
    for session_id, root in roots.items():
        if root != session_id:
            mates[root].append(session_id)
    for other, began_in in db.execute(
        select(Session.id, Session.conversation_session_id).where(
            Session.conversation_session_id.in_(set(roots.values()))
        )
    ):
        for session_id, root in roots.items():
            if root == began_in and other != session_id:
                mates[other].append(session_id)
    return mates


def _copied_from(db: DbSession, item: SessionWork, head: list[EventView]) -> int | None:
    """The session copies at a session's head came from: the one holding, as its own, the
    last record of a person's side they copy (by its id, where its source gave it one),
    else the session a fork names."""
    said = [e.id for e in head if e.role == "user"]
    if said:
        holder = db.execute(
            select(Event.session_id)
            .select_from(Event)
            .join(Session, Session.id == Event.session_id)
            .where(
                # (as written, so SQLite takes the partial index of people's record ids)
                Event.role == literal_column("'user'"),
                Event.external_id
                == select(Event.external_id).where(Event.id == said[-1]).scalar_subquery(),
                Event.session_id != item.id,
                Session.kind != "subagent",
                or_(Event.raw_type.is_(None), ~Event.raw_type.startswith(HISTORY_PREFIX)),
            )
            .order_by(Event.id)
            .limit(1)
        ).scalar()
        if holder is not None:
            return int(holder)
    return item.parent_session_id


def _copied_head(events: list[EventView]) -> tuple[list[EventView], list[EventView]]:
    """The copies a session's events open with, and the rest. Bookkeeping may stand among
    them (the desktop app opens its file with the enqueue of the message just sent, then
    writes the copies), and so may summaries (Claude Code opens a resumed file with the
    titles of the conversations it came from, `summary` lines); the first event of any
    other kind that is not a copy ends them."""
    head: list[EventView] = []
    rest: list[EventView] = []
    for index, event in enumerate(events):
        if is_copy(event):
            head.append(event)
        elif event.kind in ("meta", "summary"):
            rest.append(event)
        else:
            return head, rest + events[index:]
    return head, rest


def _forked_from(db: DbSession, parent_id: int, events: list[EventView]) -> list[EventView]:
    """The conversation up to a fork, read from the session it was forked from: its
    events up to the fork's first."""
    began = next((e.ts for e in events if e.ts is not None), None)
    if began is None:
        return []  # where the fork stood in the other session cannot be told
    return _lead_of(db, and_(Event.session_id == parent_id, Event.ts <= began))


def _continued_records(db: DbSession, session_ids: list[int]) -> dict[int, tuple[int, int]]:
    """For each session whose first record answers a record of another session's file,
    where that record is stored: (session id, seq)."""
    if not session_ids:
        return {}
    found: dict[int, tuple[int, int]] = {}
    rows = db.execute(
        select(Session.id, Session.source, Session.project_path, Session.meta).where(
            Session.id.in_(session_ids)
        )
    ).all()
    for session_id, source, project_path, meta in rows:
        record = meta.get("continues") if isinstance(meta, dict) else None
        if not isinstance(record, str) or not record:
            continue
        ids = _ids_of(record)
        held = select(Event.id).where(Event.session_id == session_id, Event.external_id.in_(ids))
        if db.execute(held.limit(1)).first() is not None:
            continue  # a record of its own: nothing before the session is named
        others = select(Session.id).where(
            Session.source == source, Session.id != session_id, Session.kind != "subagent"
        )
        if project_path is not None:
            # the same project, or one inside the other: a person who changed directories
            # in a conversation resumes it where they then were
            others = others.where(
                or_(
                    Session.project_path == project_path,
                    Session.project_path.startswith(f"{project_path}/", autoescape=True),
                    literal(project_path).startswith(Session.project_path + "/"),
                )
            )
        # held as the record's own rather than as a copy in a third session
        copied = func.max(case((Event.raw_type.startswith(HISTORY_PREFIX), 1), else_=0))
        hit = db.execute(
            select(Event.session_id, func.max(Event.seq))
            .where(Event.session_id.in_(others), Event.external_id.in_(ids))
            .group_by(Event.session_id)
            .order_by(copied, Event.session_id)
            .limit(1)
        ).first()
        if hit is not None:
            found[session_id] = (hit[0], hit[1])
    return found


#: The blocks of one record looked for by their ids: a record's events are the record's
#: id, or `<id>:<n>` for each of its blocks (`harvesters.claude_code`), and a lead needs
#: only where the record stands.
_BLOCKS_LOOKED_FOR = 32


def _ids_of(record: str) -> list[str]:
    """The ids the harvest gives the events of one record: each an index probe, where a
    pattern would read every event of the project."""
    blocks = [f"{record}:{n}" for n in range(_BLOCKS_LOOKED_FOR)]
    return [record, *blocks, f"{record}:error", f"{record}:steering"]


def _up_to(db: DbSession, session_id: int, seq: int) -> list[EventView]:
    return _lead_of(db, and_(Event.session_id == session_id, Event.seq <= seq))


#: The most sessions a lead is followed back through (a conversation resumed again and
#: again, each time into a new file holding none of it).
_CHAIN_SESSIONS = 8


def _lead_through(db: DbSession, session_id: int, seq: int) -> list[EventView]:
    """The conversation up to a record, and where the session holding it carries on an
    earlier one its file does not hold (a 1.0.x resume of a resume), that one's before
    it, up to `CARRIED_EVENTS` in all: the request a resume of a resume goes on with was
    made in the first file."""
    lead = _up_to(db, session_id, seq)
    seen = {session_id}
    while len(lead) < CARRIED_EVENTS and len(seen) < _CHAIN_SESSIONS:
        before = _continued_records(db, [session_id]).get(session_id)
        if before is None or before[0] in seen:
            break
        session_id = before[0]
        seen.add(session_id)
        room = CARRIED_EVENTS - len(lead)
        lead = _up_to(db, *before)[-room:] + lead
    return lead


def _lead_of(db: DbSession, where: ColumnElement[bool]) -> list[EventView]:
    """The last `CARRIED_EVENTS` events `where` selects, in order, each read as it was
    lived."""
    newest = [view for _, view in event_views(db, where, newest=CARRIED_EVENTS)]
    return with_late_exits([as_lived(e) for e in reversed(newest)])
