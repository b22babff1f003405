"""A session read by other rules is read again: the store ends as a first reading by the
rules of today would leave it, and keeps what must not move.

"Other rules" are made here the way an upgrade makes them: the first pass runs with the
turn classifier and the failure signatures of an older sleepd (patched in, and named by an
older rules identity), the next with today's.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining import episodes as episodes_module
from sleepd.mining import mine as mine_module
from sleepd.mining import persist as persist_module
from sleepd.mining.hard_turns import TurnJudge
from sleepd.mining.mine import mine
from sleepd.mining.reading import read_by_a_newer_release, reading_rules
from sleepd.mining.signatures import Signature
from sleepd.mining.turns import TurnDecision, TurnInput, TurnKind, classify_turn
from sleepd.store.engine import read_session, write_session
from sleepd.store.fastread import as_utc
from sleepd.store.models import (
    Episode,
    FailurePattern,
    PatternOccurrence,
    Session,
    Signal,
    Task,
    TaskCluster,
)

from .builders import LATER, T0, SessionBuilder

OLD_RULES = "0.0.9:an-older-reader"


def history() -> list[SessionBuilder]:
    """Two sessions that each install the dependencies (a recurring request, so a task),
    and in two more the same follow-up after a flag was added: today's rules read it as a
    refinement, the older rules of these tests as a request of its own."""
    sessions = []
    for day, intent in enumerate(
        ("install the dependencies with pnpm", "please install deps via pnpm")
    ):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt(intent).bash("npm install", "EACCES: permission denied", exit_code=1)
        b.bash("pnpm install", "done").prompt("thanks, works now")
        sessions.append(b)
    for day in (2, 3):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt("add a --verbose flag to the cli").bash("make build", "ok")
        b.say("Done: the cli takes --verbose now.")
        b.prompt("that's good. But the help text should mention the flag too")
        b.bash("make lint", "cli.py:3: E501 line too long", exit_code=1)
        b.say("Updated the help text; lint fails on a long line I left.")
        sessions.append(b)
    return sessions


def older_turns(turn: TurnInput, lexicon: Any) -> TurnDecision:
    """The older reader: took the follow-up on the help text for a new request."""
    if "help text" in turn.text:
        return TurnDecision(TurnKind.NEW_TASK, 0.6, ("an older reading",))
    return classify_turn(turn, lexicon)


def older_signature(*args: Any, **kwargs: Any) -> Signature:
    """The older reader keyed each failure otherwise."""
    sig = persist_module.__dict__["_today_signature"](*args, **kwargs)
    return Signature(sig.tool_name, sig.error_class, f"as read before: {sig.text}")


@pytest.fixture
def older_reader(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], None]]:
    """Patches in the older rules; the returned call takes them out again."""
    monkeypatch.setattr(
        persist_module, "_today_signature", persist_module.signature_of, raising=False
    )
    monkeypatch.setattr(episodes_module, "classify_turn", older_turns)
    monkeypatch.setattr(persist_module, "signature_of", older_signature)
    monkeypatch.setattr(mine_module, "reading_rules", lambda _cfg: OLD_RULES)
    yield monkeypatch.undo


def reading(engine: Engine) -> dict[str, Any]:
    """What mining left, by content (ids differ between stores)."""
    with read_session(engine) as db:
        by_id = {s.id: s.external_id for s in db.scalars(select(Session))}
        episodes = sorted(
            (
                by_id[e.session_id],
                e.start_seq,
                e.end_seq,
                e.outcome,
                e.outcome_rule,
                tuple(t["kind"] for t in e.turns or []),
                tuple(e.refinements or []),
            )
            for e in db.scalars(select(Episode))
        )
        signals = Counter(
            (by_id[e.session_id], e.start_seq, s.kind)
            for s, e in db.execute(select(Signal, Episode).join(Episode))
        )
        patterns = sorted(
            (p.signature, p.count, as_utc(p.first_seen), as_utc(p.last_seen))
            for p in db.scalars(select(FailurePattern))
        )
        occurrences = sorted(
            (p.signature, by_id[e.session_id], e.start_seq)
            for p, e in db.execute(
                select(FailurePattern, Episode)
                .join(PatternOccurrence, PatternOccurrence.pattern_id == FailurePattern.id)
                .join(Episode, Episode.id == PatternOccurrence.episode_id)
            )
        )
        tasks = sorted((t.intent, t.split, t.outcome) for t in db.scalars(select(Task)) if t.active)
        kinds = sorted(c.size for c in db.scalars(select(TaskCluster)) if c.size > 0)
    return {
        "episodes": episodes,
        "signals": signals,
        "patterns": patterns,
        "occurrences": occurrences,
        "active tasks": tasks,
        "cluster sizes": kinds,
    }


def save(engine: Engine, sessions: list[SessionBuilder]) -> None:
    for builder in sessions:
        builder.save(engine)


@pytest.mark.both_dbs
def test_a_session_read_by_older_rules_reads_as_a_first_reading_today_would(
    engine: Engine,
    cfg: Config,
    older_reader: Callable[[], None],
    migrated_sqlite: Callable[[Path], Engine],
    tmp_path: Path,
) -> None:
    sessions = history()
    save(engine, sessions)
    before = mine(engine, cfg, now=LATER)
    older = reading(engine)
    assert before.episodes_total == 6  # the follow-ups read as requests of their own
    assert all(p[0].split(" | ")[2].startswith("as read before") for p in older["patterns"])

    older_reader()
    report = mine(engine, cfg, now=LATER)
    assert report.sessions_read_again == 4
    assert report.episodes_gone == 2
    again = reading(engine)

    fresh_engine = migrated_sqlite(tmp_path / "fresh.db")
    try:
        save(fresh_engine, sessions)
        mine(fresh_engine, cfg, now=LATER)
        fresh = reading(fresh_engine)
    finally:
        fresh_engine.dispose()
    assert again == fresh
    assert again != older
    assert len(again["episodes"]) == 4
    assert not any("as read before" in p[0] for p in again["patterns"])

    with read_session(engine) as db:
        stamped = set(db.scalars(select(Session.mined_with)))
    assert stamped == {reading_rules(cfg.mining)}
    idle = mine(engine, cfg, now=LATER)
    assert (idle.sessions_read_again, idle.episodes_new, idle.signals_new, idle.tasks_new) == (
        0,
        0,
        0,
        0,
    )
    assert reading(engine) == fresh


@pytest.mark.both_dbs
def test_tasks_stand_while_their_episodes_read_the_same_and_are_made_again_when_not(
    engine: Engine, cfg: Config, older_reader: Callable[[], None]
) -> None:
    save(engine, history())
    mine(engine, cfg, now=LATER)

    def tasks_by_intent() -> dict[str, list[SimpleNamespace]]:
        with read_session(engine) as db:
            found: dict[str, list[SimpleNamespace]] = {}
            for task in db.scalars(select(Task).order_by(Task.id)):
                found.setdefault(task.intent.split("\n")[0], []).append(
                    SimpleNamespace(
                        id=task.id,
                        intent=task.intent,
                        split=task.split,
                        active=task.active,
                        episode_id=task.episode_id,
                        retired_because=task.retired_because,
                    )
                )
            return found

    before = tasks_by_intent()
    # the older reading: the two follow-ups on the help text recurred, so were tasks
    assert [len(before[k]) for k in sorted(before)] == [2, 1, 1, 2]
    spurious = before["that's good. But the help text should mention the flag too"]
    remade = before["add a --verbose flag to the cli"]

    older_reader()
    report = mine(engine, cfg, now=LATER)
    assert report.tasks_retired == 4
    after = tasks_by_intent()
    for task in spurious:  # its request is a follow-up now: out of the nights, kept
        (same,) = [t for t in after[task.intent.split("\n")[0]] if t.id == task.id]
        assert (same.active, same.episode_id, same.split) == (False, None, task.split)
        assert same.retired_because == "episode_gone"  # `sleepd tasks show` says why
    # the requests whose episodes now fold the follow-up in: made again, in their split
    old_ids = {t.id for t in remade}
    retired = [t for t in after["add a --verbose flag to the cli"] if t.id in old_ids]
    new = [t for t in after["add a --verbose flag to the cli"] if t.id not in old_ids]
    assert all(not t.active and t.episode_id is None for t in retired)
    assert {t.retired_because for t in retired} == {"made_otherwise"}
    assert sorted((t.split, t.active) for t in new) == sorted((t.split, True) for t in remade)
    assert all("help text" in t.intent for t in new)
    # the requests that read as before keep their tasks as they were
    for intent in ("install the dependencies with pnpm", "please install deps via pnpm"):
        (kept,) = after[intent]
        (was,) = before[intent]
        assert (kept.id, kept.active, kept.split, kept.intent) == (
            was.id,
            True,
            was.split,
            was.intent,
        )


def test_a_task_todays_rules_would_not_make_is_retired_though_its_episode_reads_the_same(
    engine: Engine, cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleepd.mining import task_mining

    b = SessionBuilder()
    b.prompt("write a haiku about compilers").say("Tokens fall like rain.")
    b.save(engine)
    save(engine, history()[:2])
    # an older task step that made a task of every request it met
    monkeypatch.setattr(task_mining, "_useful", lambda *_args: True)
    monkeypatch.setattr(mine_module, "reading_rules", lambda _cfg: OLD_RULES)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        haiku = db.scalars(select(Task).where(Task.intent.contains("haiku"))).one()
        haiku_id, haiku_episode = haiku.id, haiku.episode_id
        episodes_before = db.scalar(select(func.count(Episode.id)))
    monkeypatch.undo()

    report = mine(engine, cfg, now=LATER)
    assert (report.sessions_read_again, report.episodes_gone, report.tasks_retired) == (3, 0, 1)
    assert report.tasks_new == 0  # the recurring requests' tasks were taken back as they were
    with read_session(engine) as db:
        again = db.get(Task, haiku_id)
        assert again is not None and not again.active
        assert again.episode_id is None  # no longer its episode's task
        assert again.retired_because == "no_longer_a_task"
        assert db.get(Episode, haiku_episode) is not None
        assert db.scalar(select(func.count(Episode.id))) == episodes_before
        assert sorted(t.intent for t in db.scalars(select(Task).where(Task.active))) == [
            "install the dependencies with pnpm",
            "please install deps via pnpm",
        ]


@pytest.mark.both_dbs
def test_a_pass_cut_short_after_the_reading_leaves_the_next_to_weigh_the_tasks(
    engine: Engine, cfg: Config, older_reader: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleepd.mining import task_mining

    save(engine, history())
    mine(engine, cfg, now=LATER)
    older_reader()
    with read_session(engine) as db:
        install = {t.id for t in db.scalars(select(Task)) if "install" in t.intent}

    def killed(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(task_mining, "mine_tasks", killed)
    with pytest.raises(KeyboardInterrupt):
        mine(engine, cfg, now=LATER)
    with read_session(engine) as db:  # every session read; every task set aside
        assert not any(t.active for t in db.scalars(select(Task)))
    monkeypatch.undo()

    report = mine(engine, cfg, now=LATER)
    assert report.sessions_read_again == 0  # the reading itself had committed
    with read_session(engine) as db:
        active = {t.id: t.intent for t in db.scalars(select(Task).where(Task.active))}
        waiting = db.scalar(
            select(func.count(Task.id)).where(Task.active.is_(False), Task.episode_id.is_not(None))
        )
    assert install <= set(active)  # taken back as they were
    assert sum("help text" in intent for intent in active.values()) == 2  # folded in, anew
    assert waiting == 0
    assert mine(engine, cfg, now=LATER).tasks_new == 0


@pytest.mark.parametrize(
    ("second", "older_kind", "spawner_before", "gone", "new"),
    [
        # an older reader took a follow-up for a request, which spawned the subagent
        ("the FIXMEs too please", TurnKind.NEW_TASK, "the FIXMEs too please", 1, 0),
        # an older reader took a new request for a follow-up of the request before it
        ("Now write the notes for the project", TurnKind.FOLLOW_UP, "", 0, 1),
    ],
)
def test_a_subagent_finds_the_episode_that_spawns_it_when_a_reading_again_moves_it(
    engine: Engine,
    cfg: Config,
    second: str,
    older_kind: TurnKind,
    spawner_before: str,
    gone: int,
    new: int,
) -> None:
    first = "Find every TODO and list them"
    prompt = "Search the whole repository and write down what it finds"
    parent = SessionBuilder()
    parent.prompt(first).say("Found the TODOs: three of them.")
    parent.prompt(second).say("I'll ask a helper")
    parent.call("Task", json.dumps({"prompt": prompt}), "t1")
    parent.result("t1", "done")
    pid = parent.save(engine)
    child = SessionBuilder(kind="subagent", parent_id=pid, start=T0 + timedelta(days=2))
    child.prompt(prompt).bash("grep -rn TODO .")
    child_id = child.save(engine)

    def spawner() -> str:
        with read_session(engine) as db:
            (spawned,) = db.scalars(select(Episode).where(Episode.session_id == child_id))
            owner = db.get(Episode, spawned.parent_episode_id or 0)
            return owner.intent_text if owner is not None else ""

    def older(turn: TurnInput, lexicon: Any) -> TurnDecision:
        if turn.text == second:
            return TurnDecision(older_kind, 0.6, ("an older reading",))
        return classify_turn(turn, lexicon)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(episodes_module, "classify_turn", older)
        mine(engine, cfg, now=LATER)
    assert spawner() == (spawner_before or first)
    # only the main session was read by other rules (its subagent's reading stands)
    with write_session(engine) as db:
        db.execute(update(Session).where(Session.id == pid).values(mined_with=OLD_RULES))
    passes = [mine(engine, cfg, now=LATER) for _ in range(3)]
    assert [p.sessions_read_again for p in passes] == [1, 1, 0]  # the session, its subagent
    assert (passes[0].episodes_gone, passes[0].episodes_new) == (gone, new)
    assert spawner() == (first if gone else second)


def test_the_miner_models_verdicts_stand_and_are_not_asked_again(
    engine: Engine, cfg: Config
) -> None:
    b = SessionBuilder()
    b.prompt("add a --verbose flag to the cli").bash("make build", "ok")
    b.say("Done: the cli takes --verbose now.")
    b.prompt("what about the config file, does it read the flag from there too?")
    b.say("No: only the command line.")
    session_id = b.save(engine)
    mine(engine, cfg, now=LATER)
    with write_session(engine) as db:
        (episode,) = db.scalars(select(Episode).where(Episode.session_id == session_id))
        turns = [dict(t) for t in episode.turns]
        hard = [t for t in turns if t["hard"]]
        assert hard, "the question after the done claim is one the rules find hard"
        verdict = next(k for k in ("correction", "steering") if k != hard[-1]["kind"])
        hard[-1].update(kind=verdict, by_model=True)
        episode.turns = turns
        db.execute(update(Session).values(mined_with=OLD_RULES))

    asked: list[object] = []

    class CountingBackend:
        def complete(self, request: object) -> object:
            asked.append(request)
            raise AssertionError("a remembered verdict is not asked again")

    judge = TurnJudge(CountingBackend(), max_calls=10)
    report = mine_module._mine_pass(engine, cfg, now=LATER, backend=None)
    assert report.sessions_read_again == 1
    with read_session(engine) as db:
        episodes = list(db.scalars(select(Episode).where(Episode.session_id == session_id)))
        reread = {t["event_id"]: t for e in episodes for t in e.turns or []}
    assert reread[hard[-1]["event_id"]]["kind"] == verdict
    assert reread[hard[-1]["event_id"]]["by_model"] is True

    # and with a judge at hand, the remembered verdict is still not asked again
    with write_session(engine) as db:
        db.execute(update(Session).values(mined_with=OLD_RULES))
    cfg.mining.model_assisted = True
    report = mine_module._mine_pass(engine, cfg, now=LATER, backend=judge.backend)
    assert report.sessions_read_again == 1 and asked == []


@pytest.mark.parametrize("stored", [None, "not a list", [["a", "list"], 7, {"kind": 3}]])
def test_an_earlier_reading_whose_turns_do_not_parse_is_read_again_all_the_same(
    engine: Engine, cfg: Config, stored: object
) -> None:
    save(engine, history()[2:3])
    mine(engine, cfg, now=LATER)
    first = reading(engine)
    with write_session(engine) as db:
        db.execute(update(Episode).values(turns=stored))
        db.execute(update(Session).values(mined_with=OLD_RULES))
    assert mine(engine, cfg, now=LATER).sessions_read_again == 1
    assert reading(engine) == first


def test_a_session_read_by_a_newer_sleepd_is_left_as_it_reads(engine: Engine, cfg: Config) -> None:
    save(engine, history()[:2])
    mine(engine, cfg, now=LATER)
    newer = "99.0.0:a-newer-reader"
    with write_session(engine) as db:
        db.execute(update(Session).values(mined_with=newer))
    before = reading(engine)
    report = mine(engine, cfg, now=LATER)
    assert report.sessions_read_again == 0 and report.sessions_mined == 0
    assert reading(engine) == before
    with read_session(engine) as db:
        assert set(db.scalars(select(Session.mined_with))) == {newer}


def test_sessions_stored_before_their_reader_was_named_are_read_again_once(
    engine: Engine, cfg: Config
) -> None:
    save(engine, history())
    mine(engine, cfg, now=LATER)
    first = reading(engine)
    with write_session(engine) as db:  # as migration 0022 leaves a store mined before it
        db.execute(update(Session).values(mined_with=""))
    report = mine(engine, cfg, now=LATER)
    assert report.sessions_read_again == 4 and report.episodes_gone == 0
    assert reading(engine) == first
    assert mine(engine, cfg, now=LATER).sessions_read_again == 0


@pytest.mark.parametrize(
    ("stored", "current", "newer"),
    [
        ("0.2.0:abc", "0.1.0:def", True),
        ("0.10.0:abc", "0.9.3:def", True),
        ("0.1.0:abc", "0.1.0:def", False),  # the same release, other code: read again
        ("0.1.0:abc", "0.2.0:def", False),
        ("", "0.1.0:def", False),
        ("not a version:abc", "0.1.0:def", False),
    ],
)
def test_which_stored_readings_a_release_leaves_alone(
    stored: str, current: str, newer: bool
) -> None:
    assert read_by_a_newer_release(stored, current) is newer


def test_the_rules_identity_follows_the_settings_that_change_a_reading(cfg: Config) -> None:
    base = reading_rules(cfg.mining)
    assert base == reading_rules(cfg.mining)
    cfg.mining.correction_patterns = [r"\bnope\b"]
    assert reading_rules(cfg.mining) != base
    cfg.mining.correction_patterns = []
    cfg.mining.min_recurrence += 1  # clustering, not reading: no session is read again
    assert reading_rules(cfg.mining) == base


def test_a_task_a_rule_of_today_leaves_out_is_retired_saying_which(
    engine: Engine, cfg: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older task step made a replay task of a request whose only work is an act in
    the tracker; today's reading retires it, keeping which rule did (`sleepd tasks show`
    says it in words)."""
    from sleepd.mining import task_mining

    for day in range(2):
        b = SessionBuilder(start=T0 + timedelta(days=day))
        b.prompt("log a linear bug and let's move on").bash("linear issue create", "ENT-1")
        b.say("Logged ENT-1.").save(engine)
    monkeypatch.setattr(task_mining, "acts_only_outside", lambda _text: False)
    monkeypatch.setattr(mine_module, "reading_rules", lambda _cfg: OLD_RULES)
    mine(engine, cfg, now=LATER)
    with read_session(engine) as db:
        ids = [t.id for t in db.scalars(select(Task).where(Task.active))]
    assert len(ids) == 2
    monkeypatch.undo()

    report = mine(engine, cfg, now=LATER)
    assert report.tasks_retired == 2
    with read_session(engine) as db:
        retired = db.scalars(select(Task).where(Task.id.in_(ids))).all()
        assert {task.retired_because for task in retired} == {"outside"}
