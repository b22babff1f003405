"""A main file shorter than its header says is damage only when no WAL holds the rest.

A harvest killed inside a checkpoint leaves exactly that shape (page 1, with the new page
count, is copied before the pages past the old end); SQLite completes it from the WAL on
the next open, so calling it damage would lock the user out of a sound database.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sleepd.store.integrity import header_problem


def _database_claiming_more_pages(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x TEXT)")
    con.executemany("INSERT INTO t VALUES (?)", [("x" * 500,) for _ in range(100)])
    con.commit()
    con.close()
    data = bytearray(path.read_bytes())
    pages = int.from_bytes(data[28:32], "big")
    data[28:32] = (pages + 10).to_bytes(4, "big")  # the header now claims 10 pages more
    path.write_bytes(bytes(data))


def test_short_file_without_a_wal_is_damaged(tmp_path: Path) -> None:
    db = tmp_path / "sleepd.db"
    _database_claiming_more_pages(db)
    problem = header_problem(db)
    assert problem is not None and "truncated" in problem


def test_short_file_with_frames_in_its_wal_is_not_damaged(tmp_path: Path) -> None:
    db = tmp_path / "sleepd.db"
    _database_claiming_more_pages(db)
    (tmp_path / "sleepd.db-wal").write_bytes(b"\x37\x7f\x06\x82" + bytes(4096 + 60))
    assert header_problem(db) is None


def test_an_empty_wal_does_not_excuse_a_short_file(tmp_path: Path) -> None:
    db = tmp_path / "sleepd.db"
    _database_claiming_more_pages(db)
    (tmp_path / "sleepd.db-wal").write_bytes(b"")
    assert header_problem(db) is not None
