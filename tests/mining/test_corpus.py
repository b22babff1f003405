"""Mining the real sample transcripts after a real harvest.

Sessions chosen by reading them (seq numbers are the harvester's event order):

* 7acd37a8 (Claude 2.0.42): `/init` meta first (no intent); the intent at seq 48
  ("OK, so this was just so you know…"); the user rejects tool calls, interrupts
  (seq 60) and steers ("I have both Node and Python…", seq 63) — feedback, not a new
  intent; `npm install` is rejected (seq 78/81) and `pnpm install` (seq 84/86) then
  works; "Let's also Migrate to AudioWorklet" (seq 176) is a new intent.
* b981cea660 / 40cb292b (Claude 2.1.92): a manual compaction (boundary seq 359,
  summary seq 360) in the middle of the episode that starts at seq 149.
* ef958aa1 + subagents/agent-a4ca… (Claude 2.1.114): the subagent was spawned by the
  Agent call at seq 50 of its parent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from sleepd.config import Config
from sleepd.mining.mine import mine
from sleepd.store.engine import read_session
from sleepd.store.models import Episode, Event, Session, Signal

from .builders import LATER
from .corpus_layout import lay_out


@pytest.fixture
def mined(engine: Engine, cfg: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    from sleepd.harvest import harvest

    claude, codex = lay_out(tmp_path / "homes")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    monkeypatch.setenv("CODEX_HOME", str(codex))
    harvest(engine, cfg)
    mine(engine, cfg, now=LATER)
    return engine


def episodes_of(engine: Engine, external_id: str) -> list[Episode]:
    with read_session(engine) as db:
        session_id = db.scalars(select(Session.id).where(Session.external_id == external_id)).one()
        rows = list(
            db.scalars(
                select(Episode).where(Episode.session_id == session_id).order_by(Episode.start_seq)
            )
        )
        db.expunge_all()  # keep the loaded values past the read session's rollback
        return rows


def event_id(engine: Engine, external_id: str, seq: int) -> int:
    with read_session(engine) as db:
        return db.scalars(
            select(Event.id)
            .join(Session, Session.id == Event.session_id)
            .where(Session.external_id == external_id, Event.seq == seq)
        ).one()


def signals_of(engine: Engine, episode_id: int) -> list[Signal]:
    with read_session(engine) as db:
        rows = list(db.scalars(select(Signal).where(Signal.episode_id == episode_id)))
        db.expunge_all()
        return rows


SOUND = "7acd37a8-2745-4b58-a8a9-46164b22ad9e"
COMPACTED = "40cb292b-9ea2-4da3-94d1-1c764cbe1053"
PARENT = "ef958aa1-0e93-49f0-bb71-150f63befcd1"


def test_interrupt_steering_and_a_fixed_tool_error(mined: Engine) -> None:
    init, first, second = episodes_of(mined, SOUND)
    assert init.intent_text == "/init"  # a built-in that does work is a task of its own
    assert (first.start_seq, first.end_seq, second.start_seq) == (48, 175, 176)
    assert first.intent_text.startswith("OK, so this was just so you know")
    assert second.intent_text == "Let's also Migrate to AudioWorklet"
    assert first.feedback_count == 3  # the steer after the interrupt, "ok, fine", "yes please"
    kinds = [t["kind"] for t in first.turns or []]
    assert kinds == ["new_task", "steering", "follow_up", "follow_up"]
    sigs = signals_of(mined, first.id)
    interrupt = [s for s in sigs if s.kind == "interrupt"]
    assert [s.event_ids for s in interrupt] == [[event_id(mined, SOUND, 60)]]
    recovered = {tuple(s.event_ids) for s in sigs if s.kind == "tool_error_recovered"}
    npm = tuple(event_id(mined, SOUND, seq) for seq in (78, 81, 86))
    assert npm in recovered
    # two refusals (the second, npm install): the two calls cancelled with the first are
    # knock-ons of that refusal, not refusals of their own
    refused = [s.event_ids for s in sigs if s.kind == "tool_rejected"]
    assert refused == [[event_id(mined, SOUND, 54)], [event_id(mined, SOUND, 81)]]
    # the agent finished and the person went on to the next request
    assert first.outcome == "success" and first.outcome_event_ids


def test_the_rejected_npm_install_becomes_a_judge_check(mined: Engine) -> None:
    from sleepd.mining.task_mining import _evidence, _load_events
    from sleepd.mining.tasks import heuristic_spec

    first = episodes_of(mined, SOUND)[1]
    with read_session(mined) as db:
        sigs = list(db.scalars(select(Signal).where(Signal.episode_id == first.id)))
        episode = db.get(Episode, first.id)
        assert episode is not None
        events, commands = _load_events(db, sigs)
        spec = heuristic_spec(_evidence(episode, sigs, events, commands))
    checks = [(c.type, c.value) for c in spec.checks]
    assert ("must_not_contain", "npm install") in checks


def test_compaction_does_not_split_an_episode(mined: Engine) -> None:
    episodes = episodes_of(mined, COMPACTED)
    starts = [e.start_seq for e in episodes]
    assert 360 not in starts and 359 not in starts
    covering = [e for e in episodes if e.start_seq <= 360 <= e.end_seq]
    assert len(covering) == 1


def test_meta_is_never_an_intent(mined: Engine) -> None:
    with read_session(mined) as db:
        intents = db.scalars(select(Episode.intent_text)).all()
    assert not any(t.startswith(("<command-", "Caveat:", "This session is being")) for t in intents)
    # the /init command is the intent; its expanded prompt (a meta record) is not
    assert [e.start_seq for e in episodes_of(mined, SOUND)][:2] == [3, 48]


def test_subagent_attaches_to_the_spawning_episode(mined: Engine) -> None:
    parent_episodes = episodes_of(mined, PARENT)
    (child,) = episodes_of(mined, f"{PARENT}:agent-a4ca7529859c158c2")
    spawner = next(e for e in parent_episodes if e.start_seq <= 50 <= e.end_seq)
    assert child.parent_episode_id == spawner.id
    assert child.cluster_id is None


def test_a_second_pass_over_the_corpus_adds_nothing(mined: Engine, cfg: Config) -> None:
    report = mine(mined, cfg, now=LATER)
    assert (report.episodes_new, report.signals_new, report.clusters_new, report.tasks_new) == (
        0,
        0,
        0,
        0,
    )
