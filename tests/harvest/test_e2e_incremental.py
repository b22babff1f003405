"""Appends, half-written lines, truncation and replacement, through the real store."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from e2e_support import (
    append_bytes,
    claude_answer,
    claude_prompt,
    codex_prompt,
    integrity,
    line,
    query,
    write_lines,
)

from sleepd.harvest import harvest

CLAUDE_SID = "06090cb1-3e64-433a-bc7e-a621c0f596d2"
CODEX_SID = "019e9625-802f-7e91-840a-cfe88d14117a"


def claude_file(home: Path) -> Path:
    [path] = (home / "claude" / "projects").glob(f"*/{CLAUDE_SID}.jsonl")
    return path


def codex_file(home: Path) -> Path:
    [path] = (home / "codex" / "sessions").rglob(f"rollout-*{CODEX_SID}.jsonl")
    return path


def session_events(db_file: Path, source: str, sid: str) -> list[tuple[int, str, str]]:
    return query(
        db_file,
        "SELECT e.seq, e.external_id, e.text FROM events e JOIN sessions s ON s.id = e.session_id "
        "WHERE s.source = ? AND s.external_id = ? ORDER BY e.seq",
        (source, sid),
    )


def assert_dense(events: list[tuple[int, str, str]]) -> None:
    assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
    assert len({eid for _, eid, _ in events}) == len(events)


def test_appended_lines_and_a_completed_half_line_arrive_once_each(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    harvest(store, cfg)
    claude, codex = claude_file(corpus_tree), codex_file(corpus_tree)
    before = {
        "claude": session_events(db_file, "claude", CLAUDE_SID),
        "codex": session_events(db_file, "codex", CODEX_SID),
    }
    new_claude = [
        line(claude_prompt(CLAUDE_SID, f"aaaaaaaa-0000-4000-8000-00000000000{i}", f"appended c{i}"))
        for i in range(3)
    ]
    new_codex = [line(codex_prompt(f"appended x{i}")) for i in range(3)]
    append_bytes(claude, new_claude[0] + new_claude[1] + new_claude[2][:40])
    append_bytes(codex, new_codex[0] + new_codex[1] + new_codex[2][:25])

    partial = harvest(store, cfg).totals()
    assert (partial["events_new"], partial["files_changed"], partial["malformed_lines"]) == (
        4,
        2,
        0,
    )
    for source, sid, prefix in (("claude", CLAUDE_SID, "c"), ("codex", CODEX_SID, "x")):
        events = session_events(db_file, source, sid)
        assert events[: len(before[source])] == before[source]
        assert [t for _, _, t in events[len(before[source]) :]] == [
            f"appended {prefix}0",
            f"appended {prefix}1",
        ]

    append_bytes(claude, new_claude[2][40:])
    append_bytes(codex, new_codex[2][25:])
    done = harvest(store, cfg).totals()
    assert (done["events_new"], done["malformed_lines"]) == (2, 0)
    for source, sid, prefix in (("claude", CLAUDE_SID, "c"), ("codex", CODEX_SID, "x")):
        events = session_events(db_file, source, sid)
        assert_dense(events)
        assert events[: len(before[source])] == before[source]
        assert [t for _, _, t in events[len(before[source]) :]] == [
            f"appended {prefix}{i}" for i in range(3)
        ]
    assert harvest(store, cfg).totals()["events_new"] == 0
    assert integrity(db_file) == "ok"


def test_a_harvest_of_named_files_stores_them_and_leaves_the_rest_to_the_sweep(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """The daemon hands each changed file to a harvest of its own (`only_paths`)."""
    harvest(store, cfg)
    claude, codex = claude_file(corpus_tree), codex_file(corpus_tree)
    before_claude = len(session_events(db_file, "claude", CLAUDE_SID))
    before_codex = len(session_events(db_file, "codex", CODEX_SID))
    append_bytes(
        claude, line(claude_prompt(CLAUDE_SID, "cccccccc-0000-4000-8000-000000000001", "w1"))
    )
    append_bytes(codex, line(codex_prompt("w2")))

    named = harvest(store, cfg, only_paths=[str(claude)]).totals()
    assert (named["events_new"], named["files_changed"]) == (1, 1)
    assert len(session_events(db_file, "claude", CLAUDE_SID)) == before_claude + 1
    assert len(session_events(db_file, "codex", CODEX_SID)) == before_codex  # not asked for

    # Named through a link to the projects folder: the same file, stored once.
    link = corpus_tree / "projects-link"
    os.symlink(corpus_tree / "claude" / "projects", link)
    append_bytes(
        claude, line(claude_prompt(CLAUDE_SID, "cccccccc-0000-4000-8000-000000000002", "w3"))
    )
    through = link / claude.relative_to(corpus_tree / "claude" / "projects")
    assert harvest(store, cfg, only_paths=[str(through)]).totals()["events_new"] == 1

    # A path in no transcript folder, or one that is gone, is nothing to harvest.
    outside = corpus_tree / "elsewhere.jsonl"
    outside.write_bytes(
        line(claude_prompt(CLAUDE_SID, "cccccccc-0000-4000-8000-000000000003", "x"))
    )
    gone = str(claude.with_name("gone.jsonl"))
    assert harvest(store, cfg, only_paths=[str(outside), gone]).totals()["events_new"] == 0

    swept = harvest(store, cfg).totals()
    assert swept["events_new"] == 1  # the Codex line waited for the sweep
    texts = [text for _, _, text in session_events(db_file, "claude", CLAUDE_SID)]
    assert texts[before_claude:] == ["w1", "w3"]
    assert [t for _, _, t in session_events(db_file, "codex", CODEX_SID)][before_codex:] == ["w2"]
    assert integrity(db_file) == "ok"


def event_count(db_file: Path, sid: str) -> int:
    [(count,)] = query(db_file, "SELECT event_count FROM sessions WHERE external_id = ?", (sid,))
    return int(count)


def test_a_truncated_then_rewritten_file_keeps_its_history_and_adds_the_new(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    harvest(store, cfg)
    path = claude_file(corpus_tree)
    old = session_events(db_file, "claude", CLAUDE_SID)
    assert len(old) >= 2
    with path.open("r+b") as handle:  # same inode, shorter content
        handle.truncate(0)
        handle.write(line(claude_prompt(CLAUDE_SID, "bbbbbbbb-0000-4000-8000-000000000001", "new")))

    report = harvest(store, cfg).totals()
    assert (report["files_reset"], report["events_new"]) == (1, 1)
    events = session_events(db_file, "claude", CLAUDE_SID)
    assert events[: len(old)] == old  # the source deleting its history deletes none of ours
    assert [t for _, _, t in events[len(old) :]] == ["new"]
    assert_dense(events)
    assert event_count(db_file, CLAUDE_SID) == len(old) + 1
    assert harvest(store, cfg).totals()["events_new"] == 0
    assert integrity(db_file) == "ok"


def test_a_replaced_file_keeps_its_history_and_adds_only_new_content(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    harvest(store, cfg)
    path = codex_file(corpus_tree)
    old = session_events(db_file, "codex", CODEX_SID)
    assert len(old) > 1
    header = path.read_bytes().split(b"\n", 1)[0] + b"\n"  # same session_meta, new body
    replacement = path.with_name("incoming.tmp")
    replacement.write_bytes(header + line(codex_prompt("replaced one")))
    old_inode = path.stat().st_ino
    os.replace(replacement, path)
    assert path.stat().st_ino != old_inode

    report = harvest(store, cfg).totals()
    assert (report["files_reset"], report["events_new"]) == (1, 1)
    events = session_events(db_file, "codex", CODEX_SID)
    assert events[: len(old)] == old
    assert [t for _, _, t in events[len(old) :]] == ["replaced one"]
    assert_dense(events)
    again = harvest(store, cfg).totals()
    assert (again["events_new"], again["files_changed"]) == (0, 0)
    assert session_events(db_file, "codex", CODEX_SID) == events
    assert integrity(db_file) == "ok"


@pytest.mark.parametrize("source", ["claude", "codex"])
def test_a_rotated_file_keeps_its_events_and_its_copy_adds_no_duplicates(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path, source: str
) -> None:
    harvest(store, cfg)
    sid = CLAUDE_SID if source == "claude" else CODEX_SID
    path = claude_file(corpus_tree) if source == "claude" else codex_file(corpus_tree)
    old = session_events(db_file, source, sid)
    content = path.read_bytes()
    # Rotation: the old content moves to a name the harvester also reads, and the agent
    # starts a new file at the old name, beginning with the same lines.
    rotated = path.with_name(path.stem + "-rotated" + path.suffix)
    if source == "codex":
        rotated = path.with_name(path.name.replace("rollout-", "rollout-0-"))
    os.rename(path, rotated)
    extra = (
        claude_prompt(sid, "cccccccc-0000-4000-8000-000000000001", "after rotation")
        if source == "claude"
        else codex_prompt("after rotation")
    )
    path.write_bytes(content + line(extra))

    report = harvest(store, cfg).totals()
    assert report["events_new"] == 1
    events = session_events(db_file, source, sid)
    assert events[: len(old)] == old
    assert [t for _, _, t in events[len(old) :]] == ["after rotation"]
    assert_dense(events)
    assert event_count(db_file, sid) == len(old) + 1
    assert integrity(db_file) == "ok"


def made_transcript(home: Path, source: str) -> tuple[Path, str, Any]:
    """A transcript written by the test (no corpus): its path, session id and a
    function making its n-th prompt line."""
    if source == "claude":
        sid = "33333333-3333-4333-8333-333333333333"
        path = home / "claude" / "projects" / "-work-demo" / f"{sid}.jsonl"

        def prompt(n: int, text: str) -> bytes:
            return line(claude_prompt(sid, f"eeeeeeee-0000-4000-8000-{n:012d}", text))

        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
        return path, sid, prompt
    sid = "019e0000-0000-7000-8000-000000000033"
    path = (
        home
        / "codex"
        / "sessions"
        / "2026"
        / "06"
        / "05"
        / f"rollout-2026-06-05T05-00-00-{sid}.jsonl"
    )
    header = {
        "timestamp": "2026-06-05T05:00:00.000Z",
        "type": "session_meta",
        "payload": {"id": sid, "timestamp": "2026-06-05T05:00:00.000Z", "cwd": "/work/demo"},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(line(header))

    def codex_line(n: int, text: str) -> bytes:
        return line(codex_prompt(text))

    return path, sid, codex_line


@pytest.mark.parametrize("source", ["claude", "codex"])
def test_a_file_truncated_and_regrown_past_its_offset_with_the_same_head_is_read_anew(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, source: str
) -> None:
    path, sid, prompt = made_transcript(isolated_home, source)
    append_bytes(path, b"".join(prompt(n, f"first {n} " + "x" * 300) for n in range(30)))
    harvest(store, cfg)
    old = session_events(db_file, source, sid)
    content = path.read_bytes()
    keep = content.index(b"\n", 4096) + 1  # the same first 4 KB: only the tail can tell
    regrown = content[:keep] + b"".join(
        prompt(100 + n, f"regrown {n} " + "y" * 300) for n in range(40)
    )
    assert len(regrown) > len(content)
    with path.open("r+b") as handle:  # same inode, same head, other lines after it
        handle.truncate(0)
        handle.write(regrown)

    report = harvest(store, cfg).totals()
    assert (report["files_reset"], report["events_new"]) == (1, 40)
    events = session_events(db_file, source, sid)
    assert events[: len(old)] == old
    assert [t.split(" ")[:2] for _, _, t in events[len(old) :]] == [
        ["regrown", str(n)] for n in range(40)
    ]
    assert_dense(events)
    assert harvest(store, cfg).totals()["events_new"] == 0


@pytest.mark.both_dbs
def test_a_subagent_stored_before_its_parent_is_linked_when_the_parent_arrives(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    project = isolated_home / "claude" / "projects" / "-work-demo"
    parent_sid = "11111111-2222-4333-8444-555555555555"
    lost_sid = "99999999-2222-4333-8444-555555555555"  # its main session is never written
    for sid, agent in ((parent_sid, "a1"), (lost_sid, "b2")):
        sub = claude_prompt(sid, f"{agent}aaaaaa-0000-4000-8000-000000000001", "sub task")
        sub["isSidechain"], sub["agentId"] = True, agent
        write_lines(project / sid / "subagents" / f"agent-{agent}.jsonl", [sub])

    def parents() -> dict[str, str | None]:
        rows = query(
            db_file,
            "SELECT s.external_id, p.external_id FROM sessions s "
            "LEFT JOIN sessions p ON p.id = s.parent_session_id WHERE s.kind = 'subagent'",
        )
        return dict(rows)

    harvest(store, cfg)
    assert parents() == {f"{parent_sid}:agent-a1": None, f"{lost_sid}:agent-b2": None}

    write_lines(
        project / f"{parent_sid}.jsonl",
        [claude_prompt(parent_sid, "cccccccc-0000-4000-8000-000000000001", "main task")],
    )
    harvest(store, cfg)
    assert parents() == {f"{parent_sid}:agent-a1": parent_sid, f"{lost_sid}:agent-b2": None}


@pytest.mark.both_dbs
def test_lines_copied_into_another_file_are_stored_once_and_counted_once(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """A transcript copied (in part) into a second file: the store's key drops the copies,
    and the session's event count follows what was really stored."""
    project = isolated_home / "claude" / "projects" / "-work-demo"
    sid = "22222222-2222-4333-8444-555555555555"
    records = [
        claude_prompt(sid, f"dddddddd-0000-4000-8000-00000000000{i}", f"step {i}") for i in range(4)
    ]
    write_lines(project / f"{sid}.jsonl", records[:3])
    harvest(store, cfg)
    write_lines(project.with_name("-work-demo-copy") / f"{sid}.jsonl", records[1:])
    report = harvest(store, cfg).totals()
    assert report["events_new"] == 1
    assert integrity(db_file) == "ok"  # includes each session's stored event count
    [(count,)] = query(db_file, "SELECT event_count FROM sessions WHERE external_id = ?", (sid,))
    assert count == 4


def test_a_group_open_too_long_is_committed_at_its_next_write(
    corpus_tree: Path, cfg: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches arrive into an open group holding the write lock; time bounds how long."""
    import sqlite3

    import sleepd.harvest.write as harvest_writer
    from sleepd.store import writedb
    from sleepd.store.engine import make_engine
    from sleepd.store.migrate import upgrade

    monkeypatch.setattr(harvest_writer, "WRITE_TEXT_BYTES", 64 * 1024)
    commits = 0
    real_connect = writedb.connect_sqlite

    def counting(db_file: Path) -> sqlite3.Connection:
        def count(statement: str) -> None:
            nonlocal commits
            commits += statement.strip().upper() == "COMMIT"

        conn = real_connect(db_file)
        conn.set_trace_callback(count)
        return conn

    monkeypatch.setattr(writedb, "connect_sqlite", counting)

    def commits_and_events(name: str) -> tuple[int, int]:
        nonlocal commits
        engine = make_engine(f"sqlite:///{corpus_tree / name}")
        upgrade(engine)
        commits = 0
        report = harvest(engine, cfg)
        engine.dispose()
        return commits, report.totals()["events_new"]

    patient = commits_and_events("patient.db")
    monkeypatch.setattr(harvest_writer, "GROUP_SECONDS", 0.0)
    hurried = commits_and_events("hurried.db")
    assert hurried[1] == patient[1] > 0
    assert hurried[0] >= patient[0] + 4  # a commit after every write


def test_a_head_no_answer_followed_is_stored_by_a_later_harvest(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code opens the file of a session a plan was handed to with the plan under
    the planning session's id; the harvest holds it for the new session's first answer.
    A session that crashed before its agent wrote a word never writes that answer, and
    its file never changes again: it is still read by the harvests after it (never
    skipped as unchanged), and stored with the id it carries once no answer can come in
    time."""
    import harvesters.claude_code as claude_code

    planning, own = "2a8af1a8-f8cc-4816-a463-12df7a999930", "5b1c2d3e-0000-4000-8000-00000000aaaa"
    written = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=3)
    prompt = claude_prompt(planning, "dddddddd-0000-4000-8000-000000000001", "Implement the plan")
    prompt["timestamp"] = written.isoformat().replace("+00:00", "Z")
    path = claude_file(corpus_tree).with_name(f"{own}.jsonl")
    write_lines(path, [prompt])

    def harvest_at(now: datetime) -> dict[str, int]:
        monkeypatch.setattr(claude_code, "_utc_now", lambda: now)
        return harvest(store, cfg).totals()

    harvest_at(written + timedelta(minutes=1))
    stored = "SELECT s.external_id, e.text FROM events e JOIN sessions s ON s.id = e.session_id "
    stored += "WHERE e.text = 'Implement the plan'"
    assert query(db_file, stored) == []
    # the file has not changed, and it is read again: the answer may still come
    again = harvest_at(written + timedelta(minutes=2))
    assert (again["files_changed"], again["events_new"]) == (1, 0)
    assert query(db_file, stored) == []
    late = harvest_at(written + timedelta(hours=1))
    assert (late["files_changed"], late["events_new"]) == (1, 1)
    assert query(db_file, stored) == [(planning, "Implement the plan")]
    # settled: the file is unchanged again, and nothing is stored twice
    after = harvest_at(written + timedelta(hours=2))
    assert (after["files_changed"], after["events_new"]) == (0, 0)
    assert integrity(db_file) == "ok"


def test_a_file_read_again_from_its_start_keeps_every_token_of_a_split_reply(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """A reply's records carry growing usage; a file replaced (a sync tool's new inode)
    after its first record was stored is read again from its start, and what the later
    record added still counts once."""
    sid = "44444444-4444-4444-8444-444444444444"
    path = isolated_home / "claude" / "projects" / "-work-demo" / f"{sid}.jsonl"
    path.parent.mkdir(parents=True)
    prompt = claude_prompt(sid, "ffffffff-0000-4000-8000-000000000001", "explain the parser")

    def record(uuid: str, text: str, out: int) -> dict[str, Any]:
        made = claude_answer(prompt, uuid, text)
        made["message"]["id"] = "msg_split"
        made["message"]["usage"] = {"input_tokens": 5, "output_tokens": out}
        return made

    first = record("ffffffff-0000-4000-8000-000000000002", "part one", 4)
    second = record("ffffffff-0000-4000-8000-000000000003", "part two", 900)
    write_lines(path, [prompt, first])
    harvest(store, cfg)
    replacement = path.with_name("incoming.tmp")
    replacement.write_bytes(path.read_bytes() + line(second))
    os.replace(replacement, path)

    assert harvest(store, cfg).totals()["files_reset"] == 1
    [(output, given)] = query(
        db_file,
        "SELECT sum(e.output_tokens), sum(e.input_tokens) FROM events e "
        "JOIN sessions s ON s.id = e.session_id WHERE s.external_id = ?",
        (sid,),
    )
    assert (output, given) == (900, 5)  # as one read of the finished file counts
