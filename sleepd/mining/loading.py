"""Read what mining needs from the store: sessions with unmined events, and their events.

Event text is read as head + tail (tool output can be megabytes; the first and
last few kilobytes hold the command, the error class and test summaries).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, and_, case, func, or_, select, update
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import aliased

from sleepd.mining.episodes import EventView
from sleepd.mining.late_exits import with_late_exits
from sleepd.mining.reading import to_read_again
from sleepd.mining.signatures import SHELL_TOOLS
from sleepd.store.fastread import as_utc
from sleepd.store.models import Episode, Event, Session

#: Rows fetched at a time: the rows stream into event views, never all held twice.
LOAD_ROWS = 1000
HEAD_CHARS = 6000
TAIL_CHARS = 6000
#: Where mining's view of a long text leaves its middle out (a cut note to `signatures`).
CUT_MARK = "\n…\n"
#: Events read before a resume point, as the lead its turns are read against
#: (`episodes.segment`'s `resume_at`): enough for the person's last turn and the agent's
#: work before it, and bounded, so a session read on each night costs little more than
#: its new events.
LEAD_EVENTS = 400


def _tail_after_cut(tail: str) -> str:
    """The cut mark and a long text's tail from its first whole line: the tail starts where
    a count of characters fell, mid-line, and a line's end (half a search match, a base64
    run) would read as a line of its own."""
    newline = tail.find("\n")
    return CUT_MARK + (tail[newline + 1 :] if newline >= 0 else tail)


@dataclass(slots=True)
class SessionWork:
    id: int
    kind: str
    project_path: str | None
    parent_session_id: int | None
    mined_through_seq: int
    max_seq: int
    last_ts: datetime | None
    #: start_seq of the session's last episode (re-segmented from there), if any
    resume_from: int | None = None
    #: read before by other rules (`mining.reading`): read again from its first event
    read_again: bool = False

    @property
    def is_subagent(self) -> bool:
        """A subagent's session is one task, its prompt the parent's; every other session
        (a main one, or a fork a person carried on in) is read turn by turn."""
        return self.kind == "subagent"


def sessions_to_mine(db: DbSession, idle_before: datetime, rules: str) -> list[SessionWork]:
    """Sessions with events past `mined_through_seq`, an open episode now idle, or a
    reading by rules other than `rules` (none newer: see `mining.reading`).

    Main sessions come first so that subagents find their parent episodes.
    """
    stats = (
        select(
            Event.session_id,
            func.max(Event.seq).label("max_seq"),
            func.max(Event.ts).label("last_ts"),
        )
        .group_by(Event.session_id)
        .subquery()
    )
    open_sessions = select(Episode.session_id).where(Episode.is_closed.is_(False))
    rows = db.execute(
        select(
            Session.id,
            Session.kind,
            Session.project_path,
            Session.parent_session_id,
            Session.mined_through_seq,
            stats.c.max_seq,
            stats.c.last_ts,
            Session.mined_with,
        )
        .join(stats, stats.c.session_id == Session.id)
        .where(
            or_(
                stats.c.max_seq > Session.mined_through_seq,
                and_(Session.id.in_(open_sessions), stats.c.last_ts < idle_before),
                Session.mined_with != rules,
            )
        )
    ).all()
    work = []
    for *fields, mined_with in rows:
        item = SessionWork(*fields)
        if mined_with != rules and item.mined_through_seq > 0:
            item.read_again = to_read_again(mined_with, rules)
            if not item.read_again and item.max_seq <= item.mined_through_seq:
                continue  # nothing new, and a later sleepd's reading stands
        work.append(item)
    work.sort(key=lambda w: (w.is_subagent, w.id))
    return work


def read_again_next_pass(db: DbSession, where: ColumnElement[bool]) -> int:
    """Mark the sessions `where` selects as read by rules that left no name, so the next
    pass (`sessions_to_mine`) reads each again from its first event; returns how many."""
    marked = db.execute(
        update(Session)
        .where(where)
        .values(mined_with="")
        .execution_options(synchronize_session=False)
    )
    return int(getattr(marked, "rowcount", 0) or 0)


def newest_first(work: Sequence[SessionWork]) -> list[SessionWork]:
    """The same sessions, main sessions first as ever, those with the latest event first.

    Model-assisted mining spends its per-pass cap in the order sessions are read. Read in
    store order, a first pass over a long history leaves a backlog that the next passes
    read first, so the session a person had today waits for weeks of older ones; newest
    first, tonight's turns are asked tonight and the backlog takes what the cap leaves.
    """
    undated = datetime.min.replace(tzinfo=UTC)

    def latest(item: SessionWork) -> tuple[datetime, int]:
        return (as_utc(item.last_ts) or undated, item.id)

    main = sorted((w for w in work if not w.is_subagent), key=latest, reverse=True)
    return main + [w for w in work if w.is_subagent]


def attach_resume_points(db: DbSession, work: Sequence[SessionWork]) -> None:
    ids = [w.id for w in work]
    if not ids:
        return
    rows = db.execute(
        select(Episode.session_id, func.max(Episode.start_seq))
        .where(Episode.session_id.in_(ids))
        .group_by(Episode.session_id)
    ).all()
    last = dict(rows)
    for item in work:
        # a session read again is segmented from its first event, as on its first reading
        item.resume_from = None if item.read_again else last.get(item.id)


#: What the harvest keeps of a record of a kind it does not know (Claude Code 2.1's
#: `frame-link` line, a Codex item no reader names): the line, and no text.
UNREAD_RECORD = "raw"
#: ... except a content block of the agent's own message of a kind the harvest does not
#: know (`server_tool_use`): that is the agent at work.
AGENT_BLOCK = "block:"


def lead_start(item: SessionWork) -> int:
    """The first seq of a session's events that a pass loads: the lead's (subagents: the
    session's start)."""
    return 0 if item.is_subagent else max(0, (item.resume_from or 0) - LEAD_EVENTS)


def read_by_mining(kind: str, raw_type: str | None) -> bool:
    """Whether mining reads an event: every one but a record of a kind the harvest does
    not know. Such a record says nothing mining can read, so it must not move a reading
    either, as it did when it stood between a command and the output that shows the CLI
    answered it. (`UNREAD_EVENT` is the same rule in SQL.)"""
    return kind != UNREAD_RECORD or (raw_type or "").startswith(AGENT_BLOCK)


#: `read_by_mining`'s events left out, as a condition on the events table.
UNREAD_EVENT = and_(
    Event.kind == UNREAD_RECORD,
    or_(Event.raw_type.is_(None), ~Event.raw_type.startswith(AGENT_BLOCK, autoescape=True)),
)


def load_events(db: DbSession, work: Sequence[SessionWork]) -> dict[int, list[EventView]]:
    """Events of each session from its resume point, after a lead of at most `LEAD_EVENTS`
    before it (subagents: from the start), with the exits Codex recorded only at a
    command's end given to its last result; records of a kind the harvest does not know
    are left out (`read_by_mining`)."""
    if not work:
        return {}
    conditions = [and_(Event.session_id == w.id, Event.seq >= lead_start(w)) for w in work]
    out: dict[int, list[EventView]] = {item.id: [] for item in work}
    for session_id, view in event_views(db, or_(*conditions)):
        out[session_id].append(view)
    return {session: with_late_exits(events) for session, events in out.items()}


def event_views(
    db: DbSession, where: ColumnElement[bool], *, newest: int | None = None
) -> Iterator[tuple[int, EventView]]:
    """The events `where` selects, each as mining reads it, with its session's id: in
    session and seq order, or, given `newest`, that many of the latest in reverse."""
    length = func.length(Event.text)
    head = func.substr(Event.text, 1, HEAD_CHARS)
    tail = case(
        (length > HEAD_CHARS + TAIL_CHARS, func.substr(Event.text, length - TAIL_CHARS + 1)),
        (length > HEAD_CHARS, func.substr(Event.text, HEAD_CHARS + 1)),
        else_="",
    )
    query = (
        select(
            Event.session_id,
            Event.id,
            Event.seq,
            Event.kind,
            Event.role,
            head,
            tail,
            length,
            Event.tool_name,
            Event.call_id,
            Event.is_error,
            Event.exit_code,
            Event.is_meta,
            Event.is_sidechain,
            Event.ts,
            Event.raw_type,
            Event.message_id,
        )
        .where(where)
        .where(~UNREAD_EVENT)
    )
    if newest is None:
        query = query.order_by(Event.session_id, Event.seq)
    else:
        query = query.order_by(Event.seq.desc()).limit(newest)
    rows = db.execute(query.execution_options(yield_per=LOAD_ROWS))
    for row in rows:
        text = row[5] or ""
        if row[6]:
            cut = (row[7] or 0) > HEAD_CHARS + TAIL_CHARS
            text += _tail_after_cut(row[6]) if cut else row[6]
        yield (
            row[0],
            EventView(
                id=row[1],
                seq=row[2],
                kind=row[3],
                role=row[4],
                text=text,
                tool_name=row[8],
                call_id=row[9],
                is_error=bool(row[10]),
                exit_code=row[11],
                is_meta=bool(row[12]),
                is_sidechain=bool(row[13]),
                ts=row[14],
                raw_type=row[15],
                message_id=row[16],
            ),
        )


#: Shell results sampled for the store-wide noise lines (see `errors.noise_lines`).
NOISE_SAMPLE = 400
NOISE_HEAD = 1500
#: As stored: Claude Code writes `Bash` and, on Windows, `PowerShell`.
_SHELL_TOOLS = ("Bash", "PowerShell", *sorted(SHELL_TOOLS))


def recent_shell_outputs(db: DbSession) -> list[tuple[str, bool]]:
    """The heads of the newest shell results, each with whether it failed: one query."""
    call = aliased(Event)
    rows = db.execute(
        select(func.substr(Event.text, 1, NOISE_HEAD), Event.is_error, Event.exit_code)
        .join(
            call,
            and_(
                call.session_id == Event.session_id,
                call.call_id == Event.call_id,
                call.kind == "tool_call",
            ),
        )
        .where(Event.kind == "tool_result", call.tool_name.in_(_SHELL_TOOLS))
        .order_by(Event.id.desc())
        .limit(NOISE_SAMPLE)
    ).all()
    return [(text or "", bool(err) or (code not in (None, 0))) for text, err, code in rows]
