"""Bad transcripts are counted and named, never a crash; a full disk stops cleanly."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_support import claude_prompt, integrity, query, read_directly, write_lines
from sqlalchemy import event
from typer.testing import CliRunner

from sleepd.cli.app import app
from sleepd.harvest import DiskFullError, harvest
from sleepd.store import writedb

SID = "bad0bad0-0000-4000-8000-000000000001"


def test_malformed_line_and_garbage_file_are_counted_with_file_and_line(
    isolated_home: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    claude = write_lines(
        isolated_home / "claude" / "projects" / "-work-bad" / f"{SID}.jsonl",
        [
            claude_prompt(SID, "bad0bad0-0000-4000-8000-0000000000a1", "before"),
            b'{"type": "user", "message": {"role": ',  # cut off mid-object
            claude_prompt(SID, "bad0bad0-0000-4000-8000-0000000000a2", "after"),
        ],
    )
    garbage = isolated_home / "codex" / "sessions" / "2026" / "01" / "01"
    garbage.mkdir(parents=True)
    garbage = garbage / "rollout-2026-01-01T00-00-00-garbage.jsonl"
    garbage.write_bytes(b"\x00\xff\xfe binary\n\x89PNG\r\n[1, 2, 3]\n")

    report = harvest(store, cfg)
    assert report.sources["claude"].malformed_lines == 1
    assert report.sources["codex"].malformed_lines == 3
    assert report.totals()["errors"] == 0
    skipped = query(
        db_file,
        "SELECT f.path, s.line_no, s.reason FROM skipped_lines s "
        "JOIN transcript_files f ON f.id = s.file_id ORDER BY f.path, s.line_no",
    )
    assert [(path, line_no) for path, line_no, _ in skipped] == [
        (str(claude), 2),
        (str(garbage), 1),
        (str(garbage), 2),
        (str(garbage), 3),
    ]
    assert "not an object" in skipped[-1][2]
    texts = query(db_file, "SELECT text FROM events ORDER BY seq")
    assert texts == [("before",), ("after",)]
    assert dict(query(db_file, "SELECT path, malformed_lines FROM transcript_files")) == {
        str(claude): 1,
        str(garbage): 3,
    }
    again = harvest(store, cfg).totals()
    assert (again["malformed_lines"], again["events_new"]) == (0, 0)


def test_directory_named_jsonl_is_one_error_line_and_exit_zero(isolated_home: Path) -> None:
    (isolated_home / "claude" / "projects" / "-work-odd" / "x.jsonl").mkdir(parents=True)
    write_lines(
        isolated_home / "claude" / "projects" / "-work-odd" / f"{SID}.jsonl",
        [claude_prompt(SID, "bad0bad0-0000-4000-8000-0000000000b1", "fine")],
    )
    result = CliRunner().invoke(app, ["harvest", "--json"])
    assert result.exit_code == 0, result.stderr
    lines = [ln for ln in result.stderr.splitlines() if "initialised database" not in ln]
    assert len(lines) == 1 and "x.jsonl" in lines[0], result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    detail = json.loads(result.stdout)
    assert (detail["errors"], detail["events_new"]) == (1, 1)


def test_vanished_file_is_counted_missing_not_malformed(
    isolated_home: Path, cfg: Any, store: Any
) -> None:
    path = write_lines(
        isolated_home / "claude" / "projects" / "-work-gone" / f"{SID}.jsonl",
        [claude_prompt(SID, "bad0bad0-0000-4000-8000-0000000000c1", "soon gone")],
    )

    def delete_when_reached(source: str, index: int, total: int) -> None:
        if source == "claude":
            path.unlink()  # discovered, now deleted before it is read

    report = harvest(store, cfg, progress=delete_when_reached).sources["claude"]
    assert (report.files_scanned, report.files_missing) == (1, 1)
    assert (report.malformed_lines, report.errors, report.events_new) == (0, 0, 0)


def _page_count(db_file: Path) -> int:
    conn = sqlite3.connect(db_file)
    try:
        return int(conn.execute("PRAGMA page_count").fetchone()[0])
    finally:
        conn.close()


def _capped(limit: int) -> Any:
    """`writedb.connect_sqlite` on a database that cannot grow past `limit` pages."""
    real = writedb.connect_sqlite

    def connect(db_file: Path) -> sqlite3.Connection:
        conn = real(db_file)
        conn.execute(f"PRAGMA max_page_count = {limit}")
        return conn

    return connect


def test_full_disk_raises_one_line_and_keeps_what_was_committed(
    corpus_tree: Path,
    cfg: Any,
    store: Any,
    db_file: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harvest(store, cfg, source="codex")
    before = query(db_file, "SELECT count(*) FROM events")[0][0]
    assert before > 0
    limit = _page_count(db_file) + 40

    def cap(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.execute(f"PRAGMA max_page_count = {limit}")

    store.dispose()
    event.listen(store, "connect", cap)  # the engine's connections, and the stdlib ones
    with monkeypatch.context() as patched, pytest.raises(DiskFullError) as caught:
        patched.setattr(writedb, "connect_sqlite", _capped(limit))
        harvest(store, cfg)
    assert "\n" not in str(caught.value) and "full" in str(caught.value)
    store.dispose()
    event.remove(store, "connect", cap)

    after = query(db_file, "SELECT count(*) FROM events")[0][0]
    assert after >= before  # batches committed before the failure stay
    assert integrity(db_file) == "ok"
    harvest(store, cfg)  # space freed: the next run completes without duplicates
    expected = sum(len(events) for _, events in read_directly(corpus_tree).values())
    assert query(db_file, "SELECT count(*) FROM events")[0][0] == expected


CAPPED_CLI = """
import sys
from sqlalchemy import event
from sqlalchemy.pool import Pool

LIMIT = int(sys.argv[1])

@event.listens_for(Pool, "connect")
def cap(dbapi_conn, _record):
    dbapi_conn.execute(f"PRAGMA max_page_count = {LIMIT}")

from sleepd.store import writedb

real_connect = writedb.connect_sqlite

def capped(db_file):
    conn = real_connect(db_file)
    conn.execute(f"PRAGMA max_page_count = {LIMIT}")
    return conn

writedb.connect_sqlite = capped

from sleepd.cli.app import main
sys.argv = ["sleepd", "harvest"]
main()
"""


def test_full_disk_on_the_cli_is_one_line_and_nonzero(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path
) -> None:
    harvest(store, cfg, source="codex")
    before = query(db_file, "SELECT count(*) FROM events")[0][0]
    store.dispose()
    done = subprocess.run(
        [sys.executable, "-c", CAPPED_CLI, str(_page_count(db_file) + 40)],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sleepd: error:") and "full" in lines[0]
    assert done.stdout == ""
    assert query(db_file, "SELECT count(*) FROM events")[0][0] >= before
    assert integrity(db_file) == "ok"


def test_a_harvest_stopped_mid_group_rolls_the_group_back(
    corpus_tree: Path, cfg: Any, store: Any, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches are written into the open group as they arrive; a stop before its commit
    (here: Ctrl-C while reading) leaves only committed groups."""
    import sleepd.harvest.read as harvest_read
    import sleepd.harvest.write as harvest_writer

    monkeypatch.setattr(harvest_writer, "WRITE_TEXT_BYTES", 1)  # write every batch at once
    real = harvest_read.read_file
    seen = 0

    def breaks_after_a_while(job: Any) -> Any:
        nonlocal seen
        for batch in real(job):
            seen += 1
            if seen == 6:
                raise KeyboardInterrupt("reading stopped")
            yield batch

    monkeypatch.setattr(harvest_read, "read_file", breaks_after_a_while)
    with pytest.raises(KeyboardInterrupt, match="reading stopped") as caught:
        harvest(store, cfg)
    # Rolled back at once, not when the failed harvest's frames (kept alive by the
    # traceback here, by a daemon's logging there) are collected: the lock is free.
    other = sqlite3.connect(db_file, timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.rollback()
    finally:
        other.close()
    assert caught.traceback
    assert query(db_file, "SELECT count(*) FROM events")[0][0] == 0  # one group, rolled back
    assert integrity(db_file) == "ok"

    monkeypatch.setattr(harvest_read, "read_file", real)
    harvest(store, cfg)
    expected = sum(len(events) for _, events in read_directly(corpus_tree).values())
    assert query(db_file, "SELECT count(*) FROM events")[0][0] == expected
    assert integrity(db_file) == "ok"
