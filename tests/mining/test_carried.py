"""The conversation a session carries on from another: read as the lead of its first turns.

`mining.carried` finds it (copies at the session's head, the session a fork was forked
from, the record a resumed file's first record answers); `episodes.segment` reads the
session's own turns against it, and what the session adds to the request running there
is an episode that carries that request on, with no request of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining.carried import (
    as_lived,
    continuations_found,
    join_conversations,
    split_carried,
)
from sleepd.mining.episodes import EventView, segment
from sleepd.mining.lexicon import lexicon_for
from sleepd.mining.loading import load_events, sessions_to_mine
from sleepd.mining.mine import mine
from sleepd.store.engine import read_session, write_session
from sleepd.store.models import Episode, Event, Session, Task

from .builders import LATER, T0, SessionBuilder, views

REQUEST = "Add a dark mode toggle to the settings page"
CORRECTION = "the toggle doesn't persist after a reload, fix it"


def conversation(builder: SessionBuilder) -> SessionBuilder:
    builder.prompt(REQUEST).call("Edit", '{"file_path": "settings.tsx"}', "c1")
    return builder.result("c1").say("Added the toggle to the settings page.")


def as_copies(builder: SessionBuilder) -> SessionBuilder:
    """The builder's rows as a resume writes them into the new session's file, kept by the
    harvest as context (`history:<kind>` meta)."""
    for row in builder.rows:
        row["raw_type"] = f"history:{row.get('raw_type') or row['kind']}"
        row["kind"], row["is_meta"], row["is_error"] = "meta", True, False
    return builder


@dataclass
class Read:
    """What mining stored of one episode."""

    intent_text: str
    start_seq: int
    outcome: str
    kinds: list[str]


def own_episodes(engine: Engine, session_id: int) -> list[Read]:
    with read_session(engine) as db:
        return [
            Read(e.intent_text, e.start_seq, e.outcome, [t["kind"] for t in e.turns or []])
            for e in db.scalars(
                select(Episode).where(Episode.session_id == session_id).order_by(Episode.start_seq)
            )
        ]


def carried_into(engine: Engine, session_id: int) -> list[EventView]:
    """The conversation a session carries on, as a pass reading it from its start finds it."""
    with read_session(engine) as db:
        work = [w for w in sessions_to_mine(db, LATER, "rules") if w.id == session_id]
        return split_carried(db, work, load_events(db, work)).carried[session_id]


def test_a_correction_after_the_copied_conversation_carries_its_request_on(
    engine: Engine, cfg: Config
) -> None:
    parent = conversation(SessionBuilder())
    parent.save(engine)
    resumed = as_copies(conversation(SessionBuilder(start=T0 + timedelta(days=1))))
    resumed.prompt(CORRECTION).call("Edit", '{"file_path": "store.ts"}', "c2").result("c2")
    resumed.say("The toggle now persists.")
    resumed_id = resumed.save(engine)

    mine(engine, cfg, now=LATER)

    [carried] = own_episodes(engine, resumed_id)
    assert carried.intent_text == ""  # the request was the other session's
    assert carried.kinds == ["correction"]
    with read_session(engine) as db:
        [first_own] = db.scalars(
            select(Event.seq).where(Event.session_id == resumed_id, Event.kind == "user_prompt")
        )
        assert carried.start_seq == first_own
        # one request in all, the other session's; no task was made of the correction
        requests = db.scalars(select(Episode.intent_text).where(Episode.intent_text != ""))
        assert list(requests) == [REQUEST]
        assert all(CORRECTION not in (t.intent or "") for t in db.scalars(select(Task)))


def test_a_new_request_after_the_copied_conversation_opens_its_own_episode(
    engine: Engine, cfg: Config
) -> None:
    resumed = as_copies(conversation(SessionBuilder()))
    resumed.meta("<command-name>/model</command-name>")
    resumed.prompt("Write a changelog entry for the 2.0 release").say("Written.")
    resumed_id = resumed.save(engine)

    mine(engine, cfg, now=LATER)

    carried, own = own_episodes(engine, resumed_id)
    assert own.intent_text == "Write a changelog entry for the 2.0 release"
    assert own.kinds == ["new_task"]
    # the command typed before it is the running request's, as in one session
    assert (carried.intent_text, carried.kinds) == ("", ["housekeeping"])


def test_a_fork_reads_its_first_turn_against_the_session_it_was_forked_from(
    engine: Engine, cfg: Config
) -> None:
    parent = conversation(SessionBuilder())
    parent_id = parent.save(engine)
    fork = SessionBuilder(kind="fork", parent_id=parent_id, start=T0 + timedelta(hours=1))
    fork.prompt(CORRECTION).say("Fixed: the toggle is saved to local storage.")
    fork_id = fork.save(engine)

    mine(engine, cfg, now=LATER)

    [carried] = own_episodes(engine, fork_id)
    assert carried.intent_text == ""
    assert carried.kinds == ["correction"]


def test_the_conversation_stops_where_the_fork_began(engine: Engine) -> None:
    """What the first session did after the fork is not the fork's conversation."""
    parent = conversation(SessionBuilder())
    parent.prompt("Write a changelog entry for the 2.0 release").say("Written.")
    parent_id = parent.save(engine)
    # forked after the first exchange, before the changelog request (an event each 10 s)
    fork = SessionBuilder(kind="fork", parent_id=parent_id, start=T0 + timedelta(seconds=35))
    fork.prompt(CORRECTION).say("Fixed.")
    fork_id = fork.save(engine)

    carried = carried_into(engine, fork_id)
    # read against the toggle's exchange, not the changelog's
    assert [e.text for e in carried if e.kind == "user_prompt"] == [REQUEST]
    assert carried[-1].text == "Added the toggle to the settings page."


def test_a_resumed_file_without_the_conversation_finds_it_by_the_record_it_answers(
    engine: Engine, cfg: Config
) -> None:
    parent = conversation(SessionBuilder())
    parent_id = parent.save(engine)
    last = parent.rows[-1]["external_id"]
    resumed = SessionBuilder(start=T0 + timedelta(days=1), session_meta={"continues": last})
    resumed.prompt(CORRECTION).say("Fixed.")
    resumed_id = resumed.save(engine)

    mine(engine, cfg, now=LATER)

    [carried] = own_episodes(engine, resumed_id)
    assert carried.intent_text == "" and carried.kinds == ["correction"]
    # resumed in a folder of the project the person had moved to (its first cwd is the
    # session's project): the same conversation
    inside = SessionBuilder(project="/work/app/web", session_meta={"continues": last})
    inside.prompt(CORRECTION).say("Fixed.")
    inside_id = inside.save(engine)
    mine(engine, cfg, now=LATER)
    assert own_episodes(engine, inside_id)[0].kinds == ["correction"]
    # and nothing is carried from a record no session holds, or one of another project
    with read_session(engine) as db:
        assert db.get(Session, parent_id) is not None
    lost = SessionBuilder(session_meta={"continues": "no-such-record"})
    lost.prompt(CORRECTION).say("Fixed.")
    elsewhere = SessionBuilder(project="/work/application", session_meta={"continues": last})
    elsewhere.prompt(CORRECTION).say("Fixed.")
    lost_id, elsewhere_id = lost.save(engine), elsewhere.save(engine)
    mine(engine, cfg, now=LATER)
    for session_id in (lost_id, elsewhere_id):
        [own] = own_episodes(engine, session_id)
        assert own.intent_text == CORRECTION


def test_the_carried_on_episode_reads_the_same_when_the_session_grows(
    engine: Engine, cfg: Config
) -> None:
    """The next pass resumes at the carried-on episode, which opens on the session's first
    own event: it is read against the conversation again, not taken for a request."""
    resumed = as_copies(conversation(SessionBuilder()))
    resumed.prompt(CORRECTION).say("Fixed: the toggle is saved to local storage.")
    resumed_id = resumed.save(engine)
    mine(engine, cfg, now=T0 + timedelta(minutes=2))  # the session still runs
    stored = len(resumed.rows)
    resumed.prompt("thanks, that works")
    resumed.append(engine, resumed_id, stored)

    mine(engine, cfg, now=LATER)

    [carried] = own_episodes(engine, resumed_id)
    assert carried.intent_text == ""
    assert carried.kinds == ["correction", "approval"]


def test_a_verdict_read_off_the_first_new_request_is_that_requests_turn(
    engine: Engine, cfg: Config
) -> None:
    """(From a review.) "Perfect, now …" approves the carried-on request and opens a new
    one: one episode starts there, and a pass stores it (two had, at one seq, and every
    pass stopped on the store's unique key)."""
    resumed = as_copies(conversation(SessionBuilder()))
    resumed.prompt("Perfect, now can you polish the whole website")
    resumed.call("Edit", '{"file_path": "site.css"}', "c9").result("c9").say("Polished.")
    resumed_id = resumed.save(engine)

    mine(engine, cfg, now=LATER)

    [own] = own_episodes(engine, resumed_id)
    assert own.intent_text == "Perfect, now can you polish the whole website"


def test_a_later_verdict_on_the_carried_request_stays_its_verdict(
    engine: Engine, cfg: Config
) -> None:
    """(From a review.) "Perfect, now …" after a follow-up and its work approves the
    carried-on request, as in one session, besides opening the next."""
    resumed = as_copies(conversation(SessionBuilder()))
    resumed.prompt("also add it to the mobile menu")
    resumed.call("Edit", '{"file_path": "menu.tsx"}', "c5").result("c5").say("Added it.")
    resumed.prompt("Perfect, now can you polish the whole website").say("Polished.")
    resumed_id = resumed.save(engine)

    mine(engine, cfg, now=LATER)

    carried, request = own_episodes(engine, resumed_id)
    assert carried.kinds == ["follow_up", "approval"]
    assert request.intent_text == "Perfect, now can you polish the whole website"


def test_a_fork_goes_on_from_the_record_it_answers_not_from_the_clock(
    engine: Engine, cfg: Config
) -> None:
    """(From a review.) The first session went on after the fork (in another terminal): the
    fork carries on the conversation up to the copy its first record answers."""
    parent = conversation(SessionBuilder())
    fork_point = parent.rows[-1]["external_id"]
    parent.prompt("Now write the release notes for version 2.0").say("Written the notes.")
    parent_id = parent.save(engine)
    fork = SessionBuilder(
        kind="fork",
        parent_id=parent_id,
        start=T0 + timedelta(hours=1),
        session_meta={"continues": fork_point},
    )
    fork.prompt(CORRECTION).say("Fixed.")
    fork_id = fork.save(engine)

    carried = carried_into(engine, fork_id)
    assert [e.text for e in carried if e.kind == "user_prompt"] == [REQUEST]


def test_a_long_request_before_the_copy_is_still_the_one_carried_on(
    engine: Engine, cfg: Config
) -> None:
    """A request whose work ran past a resumed pass's lead (400 events) before the copy
    ends: the lead still holds it, or the correction had no request to correct."""
    long = SessionBuilder().prompt(REQUEST)
    for n in range(250):
        long.call("Read", f'{{"file_path": "src/part{n}.tsx"}}', f"r{n}").result(f"r{n}")
    long.say("Added the toggle to the settings page.")
    resumed = as_copies(long)
    resumed.prompt(CORRECTION).say("Fixed.")
    resumed_id = resumed.save(engine)

    mine(engine, cfg, now=LATER)

    [carried] = own_episodes(engine, resumed_id)
    assert (carried.intent_text, carried.kinds) == ("", ["correction"])


def test_a_record_the_session_holds_itself_names_nothing_before_it(
    engine: Engine, cfg: Config
) -> None:
    """(From a review.) A `continues` that names the session's own record (a history copy
    of it held elsewhere): the session is read as its own, from its first request."""
    session = conversation(SessionBuilder(external_id="own"))
    copy = as_copies(SessionBuilder(external_id="elsewhere", start=T0 + timedelta(hours=2)))
    copy.rows.extend(dict(row) for row in session.rows)
    as_copies(copy).prompt("Write a changelog entry for the 2.0 release").say("Written.")
    session.session_meta = {"continues": session.rows[-1]["external_id"]}
    session.prompt("and add a keyboard shortcut for it").say("Added Ctrl+D.")
    session_id = session.save(engine)
    copy.save(engine)

    mine(engine, cfg, now=LATER)

    assert own_episodes(engine, session_id)[0].intent_text == REQUEST


def test_a_record_is_found_by_any_of_its_blocks(engine: Engine, cfg: Config) -> None:
    """The record a resumed file answers may be stored as blocks (`<uuid>:<n>`)."""
    parent = conversation(SessionBuilder())
    parent.rows[-1]["external_id"] = "rec-1:2"
    parent.save(engine)
    resumed = SessionBuilder(start=T0 + timedelta(days=1), session_meta={"continues": "rec-1"})
    resumed.prompt(CORRECTION).say("Fixed.")
    resumed_id = resumed.save(engine)

    mine(engine, cfg, now=LATER)

    assert own_episodes(engine, resumed_id)[0].kinds == ["correction"]


def test_segment_reads_nothing_when_the_session_has_only_the_lead() -> None:
    lead = views(conversation(SessionBuilder()))
    assert segment([], lexicon_for(), carried=lead) == []


def test_housekeeping_typed_while_the_carried_request_ran_is_that_requests() -> None:
    """As in one session: "/model" after the agent's answer, before the next request, is
    the running request's; and "/exit" alone is still read, as that request's."""
    lead = views(conversation(SessionBuilder()))
    own = SessionBuilder()
    own.prompt("/model", is_meta=False)
    own.prompt("Write a changelog entry for the 2.0 release").say("Written.")
    drafts = segment(views(own), lexicon_for(), carried=lead)
    assert [(d.carries_on, d.intent_text) for d in drafts] == [
        (REQUEST, ""),
        (None, "Write a changelog entry for the 2.0 release"),
    ]
    assert [t.event.text for t in drafts[0].housekeeping] == ["/model"]
    only = segment(
        views(SessionBuilder().prompt("/exit", is_meta=False)), lexicon_for(), carried=lead
    )
    assert [[t.kind.value for t in d.housekeeping] for d in only] == [["housekeeping"]]


def test_a_copy_is_read_as_the_event_it_copies() -> None:
    def copy(kind: str, raw_type: str | None = None) -> EventView:
        return as_lived(
            EventView(
                id=1, seq=1, kind="meta", raw_type=f"history:{raw_type or kind}", is_meta=True
            )
        )

    assert (copy("user_prompt").kind, copy("user_prompt").is_meta) == ("user_prompt", False)
    assert copy("tool_call").kind == "tool_call"
    steering = copy("user_prompt", "steering")
    assert (steering.kind, steering.is_steering) == ("user_prompt", True)
    hook = copy("meta", "progress:hook_progress")
    assert (hook.kind, hook.raw_type, hook.is_meta) == ("meta", "progress:hook_progress", True)
    # a name after the prefix that is no kind, hostile or new, stays meta
    odd = copy("meta", "history:<script>")
    assert (odd.kind, odd.is_meta) == ("meta", True)
    # kinds a copy keeps only as their record type (from a review)
    assert copy("tool_result", "persisted-output").kind == "tool_result"
    assert copy("user_prompt", "event_msg:thread_goal_updated").kind == "user_prompt"
    assert copy("summary", "compacted").kind == "summary"
    assert copy("raw", "block:server_tool_use").kind == "raw"


def test_a_codex_turn_ended_early_is_read_as_who_ended_it() -> None:
    def aborted(text: str) -> str:
        stored = EventView(id=1, seq=1, kind="meta", raw_type="history:turn_aborted", text=text)
        return as_lived(stored).kind

    assert aborted("interrupted") == "interrupt"
    assert aborted("review_ended") == "meta"
    assert aborted("turn stopped: the goal's token budget ran out (budget_limited)") == "error"


def test_files_naming_each_other_are_one_conversation_and_not_looked_at_again(
    engine: Engine,
) -> None:
    """Hostile or broken files whose first records answer each other's: a chain that comes
    back to itself is one conversation named by its first session, and no pass reads its
    sessions again for a record found at last (`continuations_found`)."""
    ids = [SessionBuilder(start=T0 + timedelta(hours=n)).prompt("hi").save(engine) for n in (0, 1)]
    with write_session(engine) as db:
        held = {
            session_id: db.scalar(select(Event.external_id).where(Event.session_id == session_id))
            for session_id in ids
        }
        for session_id, other in zip(ids, reversed(ids), strict=True):
            db.execute(
                update(Session)
                .where(Session.id == session_id)
                .values(mined_through_seq=1, meta={"continues": held[other]})
            )
        # the first answers a record the second holds, fresh this pass
        assert continuations_found(db, {ids[1]}) == 1
        join_conversations(db, {ids[0]: ids[1], ids[1]: ids[0]})
    with read_session(engine) as db:
        began = set(db.scalars(select(Session.conversation_session_id)))
    assert began == {min(ids)}
    with write_session(engine) as db:
        assert continuations_found(db, {ids[1]}) == 0
