"""A real session mined while it ran reads as one pass over the finished session reads it.

A session that grew is read on from its last episode's request. Each turn after it is
read against what came before: the person's last words, what the agent had done, a Codex
turn still running. These real sessions are cut just before a turn whose reading needs
that context, harvested and mined while they run, then finished; every episode, outcome
and turn must read as a harvest and a pass over the whole file read them.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from e2e_support import append_bytes, query

from sleepd.config import load_config
from sleepd.harvest import harvest
from sleepd.mining.mine import mine
from sleepd.store.open import open_store

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real_sessions"
#: (fixture, where it lies under the agent's home, the turn the file is cut before)
SESSIONS = {
    # the person's request before it is the last request: "a defect set out as its own task"
    # needs its words (nisargpatel28/artifact-hub, MIT)
    "a new request set out as a defect's fix": (
        "claude/nisargpatel28__artifact-hub__5b983582-bea6-439f-805f-40c2f9e78632.jsonl",
        "claude/projects/-artifact-hub/5b983582-bea6-439f-805f-40c2f9e78632.jsonl",
        "Help me finalize deployment.",
    ),
    # typed into the agent's running Codex turn, which began before the last request
    # (ivanma9/ship, MIT)
    "a message typed into a running Codex turn": (
        "codex/ivanma9__ship__ship_.codex_sessions_2026_03_12_rollout-2026-03-12T18-03-08-"
        "019ce44a-1edd-75b1-bfbe-8b1ed0e876c8.jsonl",
        "codex/sessions/2026/03/12/rollout-2026-03-12T18-03-08-"
        "019ce44a-1edd-75b1-bfbe-8b1ed0e876c8.jsonl",
        "i think it should be within speckit tasks?",
    ),
}
LATER = datetime(2027, 1, 1, tzinfo=UTC)


def reading(db: Path) -> list[tuple[Any, ...]]:
    """Each episode: where it starts and ends, its outcome, and each typed turn's kind."""
    seqs = dict(query(db, "SELECT id, seq FROM events"))
    rows = query(db, "SELECT start_seq, end_seq, outcome, turns FROM episodes ORDER BY start_seq")
    out = []
    for start, end, outcome, turns in rows:
        kinds = [(seqs[t["event_id"]], t["kind"]) for t in json.loads(turns or "[]")]
        out.append((start, end, outcome, sorted(kinds)))
    return out


def store_at(base: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, Path]:
    """A home of its own under `base`: its config, its store and the store's file."""
    monkeypatch.setenv("SLEEPD_HOME", str(base / "sleepd-home"))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(base / "claude"))
    monkeypatch.setenv("CODEX_HOME", str(base / "codex"))
    cfg = load_config()
    return cfg, open_store(cfg, write=True), base / "sleepd-home" / "sleepd.db"


def harvested(
    base: Path, monkeypatch: pytest.MonkeyPatch, place: str, data: bytes
) -> tuple[Any, Any, Path, Path]:
    """A home under `base` holding `data` at `place`, harvested: its config, store, the
    store's file and the transcript's path."""
    cfg, engine, db = store_at(base, monkeypatch)
    path = base / place
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    harvest(engine, cfg)
    return cfg, engine, db, path


def one_pass(
    base: Path, monkeypatch: pytest.MonkeyPatch, place: str, data: bytes, read: Any
) -> Any:
    """What `read` finds after one harvest and one pass over the finished transcript."""
    cfg, engine, db, _ = harvested(base, monkeypatch, place, data)
    mine(engine, cfg, now=LATER)
    found = read(db)
    engine.dispose()
    return found


def last_event_at(db: Path) -> datetime:
    [(last,)] = query(db, "SELECT max(ts) FROM events")
    return datetime.fromisoformat(str(last)).replace(tzinfo=UTC)


@pytest.mark.parametrize("case", list(SESSIONS))
def test_a_real_session_mined_while_it_ran_reads_as_one_pass_over_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    fixture, place, turn = SESSIONS[case]
    data = (REAL / fixture).read_bytes()
    lines = data.splitlines(keepends=True)
    cut = next(n for n, line in enumerate(lines) if turn.encode() in line)

    whole = one_pass(tmp_path / "whole", monkeypatch, place, data, reading)
    cfg, engine, db, path = harvested(
        tmp_path / "running", monkeypatch, place, b"".join(lines[:cut])
    )
    # the session still runs: its last episode stays open
    mine(engine, cfg, now=last_event_at(db) + timedelta(minutes=5))
    first_pass = reading(db)
    assert first_pass[-1][0] > 1  # read on later from its last request, with a lead
    append_bytes(path, b"".join(lines[cut:]))
    harvest(engine, cfg)
    mine(engine, cfg, now=LATER)
    assert reading(db) == whole
    engine.dispose()


def active_tasks(db: Path) -> list[tuple[Any, ...]]:
    return sorted(
        query(
            db,
            "SELECT e.start_seq, t.intent, t.outcome FROM tasks t "
            "JOIN episodes e ON e.id = t.episode_id WHERE t.active = TRUE",
        )
    )


def test_a_task_made_while_its_session_was_idle_is_weighed_again_when_the_person_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """definitelyreal/speakfree (MIT): a pass while the session sat idle for hours closed
    its request and made it a task, a failure; the person came back, refined it and it
    worked. The task made on the first reading must not stay in the nights."""
    fixture = "claude/definitelyreal__speakfree__session.jsonl"
    place = "claude/projects/-speakfree/7d48b15d-e2d0-4b94-a40b-621ba5e8485f.jsonl"
    data = (REAL / fixture).read_bytes()
    lines = data.splitlines(keepends=True)

    whole = one_pass(tmp_path / "whole", monkeypatch, place, data, active_tasks)
    cfg, engine, db, path = harvested(tmp_path / "idle", monkeypatch, place, b"".join(lines[:60]))
    # idle for hours: its request reads as ended
    mine(engine, cfg, now=last_event_at(db) + timedelta(hours=3))
    assert active_tasks(db) and active_tasks(db) != whole  # a task the whole session makes not
    append_bytes(path, b"".join(lines[60:]))
    harvest(engine, cfg)
    mine(engine, cfg, now=LATER)
    assert active_tasks(db) == whole
    engine.dispose()
