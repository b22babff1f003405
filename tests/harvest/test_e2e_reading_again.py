"""A transcript another harvest read is read again, in place, by today's harvest.

The older harvest is made as an upgrade makes one: the first harvest runs with the
Codex reader of before stop 83, which stored a goal's record (`thread_goal_updated`) as
a meta record, so a session started with `/goal` had no request, and under an older
identity (`harvest.reading`); the next runs with today's.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from codex_thread import SESSION, answered, envelope, episodes, meta, rollout
from e2e_support import query, write_lines

from harvesters import codex as codex_reader
from sleepd.harvest import harvest
from sleepd.harvest import reread as reread_module
from sleepd.harvest.plan import unchanged_report
from sleepd.mining.mine import mine

TOKEN = "ghp_" + "R4nd0mT0k3nV4lu3F0rT3st1ngOnly0123"
OBJECTIVE = f"all tests in test/auth pass; push with the token {TOKEN}"
OLDER = "0.0.1:an-older-harvest"


def goal(second: int, status: str = "active") -> dict[str, Any]:
    state = {"thread_id": SESSION, "objective": OBJECTIVE, "status": status, "tokens_used": 0}
    payload = {"type": "thread_goal_updated", "thread_id": SESSION, "goal": state}
    return envelope("event_msg", payload, second)


def records() -> list[dict[str, Any]]:
    return [
        meta(),
        goal(5),
        *answered("Done: every test in test/auth passes and the lint step is clean.", 10),
        goal(40, status="complete"),
    ]


def goal_events(db_file: Path | str) -> list[tuple[str, str, str]]:
    rows = query(
        db_file,
        "SELECT kind, role, text FROM events WHERE raw_type = 'event_msg:thread_goal_updated' "
        "ORDER BY seq",
    )
    return [(str(kind), str(role), str(text)) for kind, role, text in rows]


def write(db_file: Path, sql: str, params: tuple[Any, ...] = ()) -> None:
    conn = sqlite3.connect(db_file)
    try:
        with conn:
            conn.execute(sql, params)
    finally:
        conn.close()


def stamps(db_file: Path | str) -> list[str]:
    return [str(row[0]) for row in query(db_file, "SELECT read_with FROM transcript_files")]


def harvested_by_the_older_reader(home: Path, store: Any, cfg: Any) -> None:
    from sleepd.harvest import reading

    write_lines(rollout(home), records())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(codex_reader._CodexFile, "_goal_set", lambda *_args: False)
        patch.setattr(reread_module, "harvest_rules", lambda _cfg: OLDER)
        patch.setattr(reading, "harvest_rules", lambda _cfg: OLDER)
        harvest(store, cfg)
        mine(store, cfg)


@pytest.mark.both_dbs
def test_a_goal_the_older_harvest_stored_as_meta_becomes_the_sessions_request(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    harvested_by_the_older_reader(isolated_home, store, cfg)
    assert [kind for kind, _, _ in goal_events(db_file)] == ["meta", "meta"]
    assert [intent for intent, _ in episodes(db_file) if intent] == []  # no request
    assert stamps(db_file) == [OLDER]

    report = harvest(store, cfg)
    totals = report.totals()
    assert (totals["files_read_again"], totals["events_new"]) == (1, 0)
    assert totals["events_read_again"] >= 1
    kinds = goal_events(db_file)
    assert [(kind, role) for kind, role, _ in kinds] == [
        ("user_prompt", "user"),
        ("meta", "system"),
    ]
    # the objective went through the redaction chokepoint again
    assert TOKEN not in kinds[0][2] and "[REDACTED:" in kinds[0][2]
    assert not query(db_file, "SELECT 1 FROM events WHERE raw LIKE ?", (f"%{TOKEN}%",))
    assert stamps(db_file) != [OLDER]

    mine(store, cfg)
    [(intent, outcome)] = episodes(db_file)
    assert intent.startswith("/goal all tests in test/auth pass") and outcome == "success"

    again = harvest(store, cfg).totals()
    assert (again["files_read_again"], again["events_read_again"]) == (0, 0)


def archive(home: Path) -> None:
    """What Codex does to a thread archived: its rollout moves, name and bytes kept."""
    archived = home / "codex" / "archived_sessions" / rollout(home).name
    archived.parent.mkdir(parents=True)
    rollout(home).rename(archived)


@pytest.mark.both_dbs
@pytest.mark.parametrize("when", ["before the upgrade", "with the upgrade"])
def test_a_rollout_archived_is_read_again_where_it_moved(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, when: str
) -> None:
    """The events stay on the row of the path they were first read from; the file at its
    new path is read again by today's rules, and they take today's reading."""
    harvested_by_the_older_reader(isolated_home, store, cfg)
    if when == "before the upgrade":
        from sleepd.harvest import reading

        archive(isolated_home)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(reread_module, "harvest_rules", lambda _cfg: OLDER)
            patch.setattr(reading, "harvest_rules", lambda _cfg: OLDER)
            assert harvest(store, cfg).totals()["events_new"] == 0
        assert [kind for kind, _, _ in goal_events(db_file)] == ["meta", "meta"]
    else:
        archive(isolated_home)

    totals = harvest(store, cfg).totals()
    assert (totals["files_read_again"], totals["events_new"]) == (1, 0)
    assert [kind for kind, _, _ in goal_events(db_file)] == ["user_prompt", "meta"]
    mine(store, cfg)
    [(intent, _)] = episodes(db_file)
    assert intent.startswith("/goal all tests in test/auth pass")
    again = harvest(store, cfg).totals()
    assert (again["files_read_again"], again["events_read_again"]) == (0, 0)


@pytest.mark.both_dbs
def test_a_second_machine_reading_a_transcript_another_read_with_older_rules_reads_it_again(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Machine A stored the session by older rules; machine B's first harvest of the same
    file (synced) finds its events stored on A's row, and gives them today's reading."""
    import sleepd.hosts
    from sleepd.harvest import write as write_module

    harvested_by_the_older_reader(isolated_home, store, cfg)
    monkeypatch.setattr(sleepd.hosts, "host_id", lambda: "machine-b")
    monkeypatch.setattr(write_module, "host_id", lambda: "machine-b")
    totals = harvest(store, cfg).totals()
    assert (totals["files_read_again"], totals["events_new"]) == (1, 0)
    assert [kind for kind, _, _ in goal_events(db_file)] == ["user_prompt", "meta"]
    again = harvest(store, cfg).totals()
    assert (again["files_read_again"], again["files_changed"]) == (0, 0)


def test_a_second_machine_on_the_same_release_leaves_the_first_machines_reading(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Machine B keeps less of each text than machine A (another setting, the same
    release): B's first harvest of the synced file leaves A's events as A read them, and
    reads nothing twice."""
    import sleepd.hosts
    from sleepd.harvest import write as write_module

    write_lines(rollout(isolated_home), records())
    harvest(store, cfg)
    before = query(db_file, "SELECT external_id, text, raw FROM events ORDER BY id")
    monkeypatch.setattr(sleepd.hosts, "host_id", lambda: "machine-b")
    monkeypatch.setattr(write_module, "host_id", lambda: "machine-b")
    cfg.harvest.max_text_bytes = 16
    totals = harvest(store, cfg).totals()
    assert (totals["files_read_again"], totals["events_new"]) == (0, 0)
    assert query(db_file, "SELECT external_id, text, raw FROM events ORDER BY id") == before
    assert len(set(stamps(db_file))) == 2  # each machine's row, stamped with its own rules


def test_a_file_harvested_today_is_not_read_again(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    write_lines(rollout(isolated_home), records())
    first = harvest(store, cfg).totals()
    assert first["events_new"] > 0 and first["files_read_again"] == 0
    assert harvest(store, cfg).totals()["files_read_again"] == 0


def test_a_redaction_the_store_holds_is_never_undone(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    """A stored text holding a placeholder today's reading would not make (a rule since
    removed, say) keeps its text: reading again never brings a secret back."""
    write_lines(rollout(isolated_home), records())
    harvest(store, cfg)
    masked = "Done: [REDACTED:generic-api-key:0123abcd] every test in test/auth passes."
    write(db_file, "UPDATE events SET text = ? WHERE kind = 'assistant_text'", (masked,))
    write(db_file, "UPDATE transcript_files SET read_with = ?", (OLDER,))
    totals = harvest(store, cfg).totals()
    assert totals["files_read_again"] == 1 and totals["events_read_again"] == 0
    [(text,)] = query(db_file, "SELECT text FROM events WHERE kind = 'assistant_text'")
    assert text == masked


def test_a_file_gone_from_disk_is_left_as_stored_and_stamped(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    harvested_by_the_older_reader(isolated_home, store, cfg)
    before = goal_events(db_file)
    rollout(isolated_home).unlink()  # Claude Code's clean-up, or a person's
    totals = harvest(store, cfg).totals()
    assert (totals["files_read_again"], totals["events_read_again"], totals["errors"]) == (
        0,
        0,
        0,
    )
    assert goal_events(db_file) == before
    assert stamps(db_file) != [OLDER]  # nothing is left to read: not tried again


def test_a_file_the_reader_cannot_read_through_again_is_one_error_line_and_stays_as_stored(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sleepd.harvest import read as read_module

    harvested_by_the_older_reader(isolated_home, store, cfg)
    before = goal_events(db_file)

    def broken(job: Any) -> Any:
        raise ValueError("a shape nobody foresaw")
        yield  # a generator, as the real one

    monkeypatch.setattr(read_module, "read_file", broken)
    report = harvest(store, cfg)
    totals = report.totals()
    assert (totals["errors"], totals["files_read_again"], totals["events_read_again"]) == (1, 0, 0)
    [line] = report.sources["codex"].error_messages
    assert "a shape nobody foresaw" in line and "read again: left as stored" in line
    assert goal_events(db_file) == before
    assert harvest(store, cfg).totals()["errors"] == 0  # stamped: not tried at every harvest


def test_the_unchanged_tree_shortcut_leaves_a_file_to_read_again_to_the_full_harvest(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    write_lines(rollout(isolated_home), records())
    harvest(store, cfg)
    assert unchanged_report(cfg) is not None  # nothing new, nothing to read again
    write(db_file, "UPDATE transcript_files SET read_with = ?", (OLDER,))
    assert unchanged_report(cfg) is None
    cfg.sources.codex = False  # a source no longer harvested holds the shortcut back no more
    assert unchanged_report(cfg) is not None
    cfg.sources.codex = True
    harvest(store, cfg)
    assert unchanged_report(cfg) is not None


def test_sleepd_harvest_says_what_reading_again_changed(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    from cli_here import sleepd_here

    harvested_by_the_older_reader(isolated_home, store, cfg)
    ran = sleepd_here("harvest")
    assert ran.returncode == 0, ran.stderr
    shown = " ".join(ran.stdout.replace("│", " ").split())
    assert "read again 1 file an older harvest read (an upgrade): 1 stored event now" in shown
    again = sleepd_here("harvest")
    assert again.returncode == 0 and "read again" not in again.stdout


def test_only_a_row_whose_first_bytes_are_the_files_own_counts_as_the_same_transcript(
    tmp_path: Path,
) -> None:
    """A name is no proof (subagent files are named by a short id, which another project
    can repeat): a row counts only where what it read first is what the file begins with,
    however much less of it that row read."""
    import hashlib

    from harvesters.reader import HEAD_BYTES

    body = b"".join(b'{"n": %d}\n' % n for n in range(2000))
    path = tmp_path / "agent-a1b2c3d.jsonl"
    path.write_bytes(body)
    file = reread_module.StaleFile(1, "claude", str(path), "subagent", 0, 0, len(body), "")

    def row(row_id: int, data: bytes) -> Any:
        size = len(data)
        digest = hashlib.sha256(data[: min(HEAD_BYTES, size)]).hexdigest()
        return reread_module._StoredRow(row_id, size, digest)

    rows = [
        row(2, body[:300]),  # read early, before the file grew: the same transcript
        row(3, body),  # read whole on another machine
        row(4, b'{"n": 1}\n' + body[9:]),  # the same name and length, other first bytes
        reread_module._StoredRow(5, len(body), ""),  # never read
    ]
    assert reread_module._same_transcript(file, rows) == [1, 2, 3]
