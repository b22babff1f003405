"""A request's outcome read over the files its conversation went on in.

A conversation resumed or forked into a new file goes on with the request its first file
ended in: the new file's first turns correct it, approve it, or the agent finishes it
there (`mining.carried`). Read one file at a time, that request's episode ended where
its file did, and its outcome was that ending's: a request that failed at the resume and
was fixed in the new file read as a failure, and made a failure task; one approved in
the new file read as unknown. The new session reads the request whole (the conversation
carried, then its own turns, `EpisodeDraft.whole`), and that reading's outcome, signals
and refinements are lent to the request's episode, which the new session's episode
carrying it on names (`Episode.carries_on_episode_id`).

Lent only where the new file read all of the request: the request's episode is the last
of its session with a request, and the conversation carried reaches its last turn there.
A first file that went on after the resume (a fork taken from the middle, a person back
in the old file) keeps its own reading. Where several sessions carry one request on, the
latest to begin lends it. Each side keeps the lending when it is read again: the new
session when it reads the request whole again, the first session when its reading of
the request's episode is the one lent to (`reread`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, literal_column, select, update
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import aliased

from sleepd.mining.loading import read_again_next_pass
from sleepd.store.fastread import as_utc
from sleepd.store.models import Episode, Event, Session, Signal
from sleepd.store.resumed import HISTORY_PREFIX

#: The opening of a request's text compared to find the original of a copy that keeps no
#: id of its own (a Codex fork's replay): mining reads long texts cut (`loading`).
_TEXT_COMPARED = 2000
#: What a copy's id is, when it has none from its source (`harvesters.base.line_id`).
_PLACE_ID = "@"
#: The events that say where a request stood: what was said, and what the agent did.
_WORDS_AND_WORK = ("user_prompt", "assistant_text", "tool_call", "tool_result")


@dataclass(frozen=True, slots=True)
class CarriedRequest:
    """An episode that carries on a request made in another session, and that request
    as the new session read it whole."""

    #: the episode carrying the request on, in the new session
    episode_id: int
    session_id: int
    #: the session the new one names as its origin (a fork's), if any
    parent_session_id: int | None
    #: the request's event as the conversation carried holds it: the first session's
    #: own, or a copy in the new file
    request_event_id: int
    request_text: str
    #: the request's turns, other than housekeeping, that the conversation carried holds
    carried_turns: int
    #: the time of the last event of the conversation carried, where it has one
    carried_until: datetime | None
    #: the request's refinements over both files
    refinements: tuple[str, ...]


def asked(turns: Any) -> int:
    """How many turns of an episode's stored reading are its request and what the person
    said to it (housekeeping is said to the CLI)."""
    if not isinstance(turns, list):
        return 0
    return sum(1 for t in turns if isinstance(t, dict) and t.get("kind") != "housekeeping")


def link_carried(
    db: DbSession, waiting: Sequence[CarriedRequest], to_come: Collection[int] = ()
) -> tuple[list[tuple[CarriedRequest, set[int]]], list[Episode]]:
    """Name, for each carried request, the episode of the session it began in, and lend
    that episode the outcome read whole. Returns the requests to look for again, each
    with the sessions of `to_come` (read later in the same pass) it waits for: those
    whose first session is one of them and holds no episode of the request yet; and the
    episodes whose reading the lending changed."""
    later: list[tuple[CarriedRequest, set[int]]] = []
    lent: list[Episode] = []
    for carried in waiting:
        carrier = db.get(Episode, carried.episode_id)
        if carrier is None:
            continue  # read again since, and gone
        request, began_in = _request_episode(db, carried)
        named = carrier.carries_on_episode_id
        if named is not None and (request is None or request.id != named):
            carrier.carries_on_episode_id = None
            released(db, [named])
        if request is None:
            awaited = {s for s in began_in if s in to_come}
            if awaited:
                later.append((carried, awaited))
            continue
        carrier.carries_on_episode_id = request.id
        db.flush()
        latest = _latest_carrier(db, request)
        is_latest = latest is not None and latest.id == carrier.id
        if is_latest and _lend(db, carrier, request, list(carried.refinements)):
            lent.append(request)
    return later, lent


def reread(db: DbSession, kept: Sequence[Episode], left: Sequence[int]) -> list[Episode]:
    """After a session is read again: its episodes in `kept` (its last request, read as
    when it was lent to) take the outcome lent again; carriers of those in `left` (read
    otherwise now, or no longer its last request) no longer name them, and their sessions
    are read again at the next pass. Returns the episodes whose reading the lending
    changed."""
    if left:
        carriers = select(Episode.session_id).where(Episode.carries_on_episode_id.in_(list(left)))
        # read again, from their start, at the next pass: whether the request they carry
        # on is still all theirs to read is decided there (`link_carried`)
        read_again_next_pass(db, Session.id.in_(carriers))
        db.execute(
            update(Episode)
            .where(Episode.carries_on_episode_id.in_(list(left)))
            .values(carries_on_episode_id=None)
            .execution_options(synchronize_session="fetch")
        )
    lent: list[Episode] = []
    for request in kept:
        carrier = _latest_carrier(db, request)
        if carrier is None:
            continue
        own = list(request.refinements or [])
        added = [r for r in carrier.refinements or [] if r not in own]
        if _lend(db, carrier, request, own + added):
            lent.append(request)
    return lent


def released(db: DbSession, request_ids: Sequence[int]) -> None:
    """The episodes no longer lent an outcome (their carrier is gone, or carries on
    another): their sessions are read again at the next pass, for their own reading."""
    if request_ids:
        sessions = select(Episode.session_id).where(Episode.id.in_(list(request_ids)))
        read_again_next_pass(db, Session.id.in_(sessions))


def _latest_carrier(db: DbSession, request: Episode) -> Episode | None:
    return db.scalars(
        select(Episode)
        .join(Session, Session.id == Episode.session_id)
        .where(
            Episode.carries_on_episode_id == request.id,
            Episode.session_id != request.session_id,
            Session.kind != "subagent",
        )
        .order_by(Episode.started_at.desc(), Episode.id.desc())
        .limit(1)
    ).first()


def _lend(db: DbSession, carrier: Episode, request: Episode, refinements: list[str]) -> bool:
    """The request's episode takes the outcome, its evidence and the refinements read over
    both files (the task made of it reads them: `task_mining`). Returns whether what a
    task is made of changed."""
    before = (request.outcome, request.outcome_rule, list(request.refinements or []))
    signals = db.execute(
        select(Signal.kind, Signal.polarity, Signal.confidence, Signal.event_ids, Signal.detail)
        .where(Signal.episode_id == carrier.id)
        .order_by(Signal.id)
    ).all()
    ids = {int(i) for _, _, _, event_ids, _ in signals for i in event_ids or []}
    original = _originals_in(db, ids | set(carrier.outcome_event_ids or []), request.session_id)

    def as_lived(event_ids: Any) -> list[int]:
        return [original.get(int(i), int(i)) for i in event_ids or []]

    request.outcome = carrier.outcome
    request.outcome_rule = carrier.outcome_rule
    request.outcome_confidence = carrier.outcome_confidence
    request.outcome_event_ids = as_lived(carrier.outcome_event_ids)
    request.refinements = [text[:2000] for text in refinements][:20]
    db.flush()
    db.execute(delete(Signal).where(Signal.episode_id == request.id))
    if signals:
        db.execute(
            insert(Signal),
            [
                {
                    "episode_id": request.id,
                    "kind": kind,
                    "polarity": polarity,
                    "confidence": confidence,
                    "event_ids": as_lived(event_ids),
                    "detail": detail,
                }
                for kind, polarity, confidence, event_ids, detail in signals
            ],
        )
    return before != (request.outcome, request.outcome_rule, list(request.refinements or []))


def _originals_in(db: DbSession, event_ids: set[int], session_id: int) -> dict[int, int]:
    """For each of these events that is a copy of one the session holds (a resumed file's
    copy of the conversation: `history:` meta under the record's own id), that event: the
    evidence lent is read where it happened, as what it was (the task's evidence reads a
    failed command's result, not a copy's meta)."""
    if not event_ids:
        return {}
    copy = aliased(Event)
    return {
        int(copied): int(held)
        for copied, held in db.execute(
            select(copy.id, Event.id)
            .join(
                Event,
                and_(Event.session_id == session_id, Event.external_id == copy.external_id),
            )
            .where(copy.id.in_(sorted(event_ids)), copy.raw_type.startswith(HISTORY_PREFIX))
        )
    }


def _request_episode(db: DbSession, carried: CarriedRequest) -> tuple[Episode | None, set[int]]:
    """The episode of another session that the carried request is, where the new file read
    all of it: that session's last request, which the conversation carried reaches the
    end of. Also the sessions the request may have begun in (to look in again, when one of
    them is still to be read)."""
    began_in: set[int] = set()
    if carried.parent_session_id is not None:
        began_in.add(carried.parent_session_id)
    for event_id in _originals(db, carried):
        held_in = db.scalar(select(Event.session_id).where(Event.id == event_id))
        if held_in is None or held_in == carried.session_id:
            continue
        began_in.add(held_in)
        request = db.scalars(
            select(Episode)
            .join(Session, Session.id == Episode.session_id)
            .where(
                # by its session first: the episodes' own index
                Episode.session_id == held_in,
                Episode.intent_event_id == event_id,
                Session.kind != "subagent",
            )
            .limit(1)
        ).first()
        if request is not None:
            break
    else:
        request = _by_text_in_origin(db, carried)
    if request is not None and request.intent_text == "":
        # the request's first turns were carried on in this one's origin already (a
        # resume of a resume): the request is the one that episode carries on
        request = (
            db.get(Episode, request.carries_on_episode_id)
            if request.carries_on_episode_id is not None
            else None
        )
    if request is None or not _holds_all_of(db, request, carried):
        return None, began_in
    later_request = db.scalar(
        select(Episode.id)
        .where(
            Episode.session_id == request.session_id,
            Episode.start_seq > request.start_seq,
            Episode.intent_text != "",
        )
        .limit(1)
    )
    return (None if later_request is not None else request), began_in


def _holds_all_of(db: DbSession, request: Episode, carried: CarriedRequest) -> bool:
    """Whether the conversation carried reaches the end of the request in its own session,
    its last words or work there (a first file whose agent worked on after a fork went on
    without the new one): by time where both have one (a copy may leave out a message
    typed ahead, so the turns it holds can be fewer), else by the number of turns."""
    last = db.scalar(
        select(func.max(Event.ts)).where(
            Event.session_id == request.session_id,
            Event.seq.between(request.start_seq, request.end_seq),
            Event.kind.in_(_WORDS_AND_WORK),
        )
    )
    if last is not None and carried.carried_until is not None:
        return bool(as_utc(last) <= as_utc(carried.carried_until))
    return asked(request.turns) <= carried.carried_turns


def _originals(db: DbSession, carried: CarriedRequest) -> list[int]:
    """The request's event, and where it is a copy, the events it copies: stored under the
    same id in another session of the same source."""
    found = [carried.request_event_id]
    row = db.execute(
        select(Event.external_id, Session.source)
        .join(Session, Session.id == Event.session_id)
        .where(Event.id == carried.request_event_id)
    ).first()
    if row is None or not row[0] or row[0].startswith(_PLACE_ID):
        return found
    external_id, source = row
    found += db.scalars(
        select(Event.id)
        .join(Session, Session.id == Event.session_id)
        .where(
            and_(
                # a request is a record of a person's side: as written, so SQLite takes
                # the partial index of those records' ids (migration 0021)
                Event.role == literal_column("'user'"),
                Event.external_id == external_id,
                Event.session_id != carried.session_id,
                Session.source == source,
            )
        )
        .order_by(Event.id)
    ).all()
    return found


def _by_text_in_origin(db: DbSession, carried: CarriedRequest) -> Episode | None:
    """The last request of the session the new one names as its origin, where it is the
    same words: a copy with no id of its own (a Codex fork's replay) names nothing else."""
    if carried.parent_session_id is None:
        return None
    request = db.scalars(
        select(Episode)
        .where(Episode.session_id == carried.parent_session_id, Episode.intent_text != "")
        .order_by(Episode.start_seq.desc())
        .limit(1)
    ).first()
    if request is None or request.intent_event_id is None:
        return None
    text = db.scalar(select(Event.text).where(Event.id == request.intent_event_id)) or ""
    wanted = carried.request_text[:_TEXT_COMPARED]
    return request if wanted and text[:_TEXT_COMPARED] == wanted else None
