"""Reading a database's header never costs the process its SQLite locks.

Closing any descriptor of a file drops every POSIX lock the process holds on it,
SQLite's included (sqlite.org/howtocorrupt.html, 2.2). A connection in WAL mode holds a
shared lock on the database file while it is open; without it, another process that
closes its own connection takes itself for the last user, checkpoints and removes the
write-ahead log under the first: a `sleepd harvest` beside a `sleepd mine` read "disk
I/O error" and left the file malformed (tests/harvest/test_e2e_mine_beside.py).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sleepd.store.engine import ensure_sqlite_file
from sleepd.store.integrity import header_problem


def other_process_writes_and_closes(db_file: Path) -> None:
    code = (
        "import sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('INSERT INTO t VALUES (2)')\n"
        "c.close()\n"
    )
    subprocess.run([sys.executable, "-c", code, str(db_file)], check=True, timeout=60)


@pytest.mark.parametrize(
    "check",
    [header_problem, ensure_sqlite_file],
    ids=["header check", "file creation on an existing file"],
)
def test_a_check_of_the_file_keeps_an_open_connections_lock(
    tmp_path: Path, check: Callable[[Path], object]
) -> None:
    db_file = tmp_path / "sleepd.db"
    conn = sqlite3.connect(db_file, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (1)")
        for _ in range(3):  # a check per command, per open
            check(db_file)
        other_process_writes_and_closes(db_file)
        # the other process saw this connection's lock: it was not the last, so the log
        # it wrote is still there for this one to read
        assert db_file.with_name("sleepd.db-wal").exists()
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (2,)
    finally:
        conn.close()


def test_the_header_of_a_replaced_file_is_the_new_files(tmp_path: Path) -> None:
    db_file = tmp_path / "sleepd.db"
    sqlite3.connect(db_file).execute("CREATE TABLE t (x)").connection.close()
    assert header_problem(db_file) is None
    replaced = tmp_path / "replaced.db"
    replaced.write_bytes(b"not a database at all, only bytes" * 10)
    replaced.replace(db_file)
    assert (
        header_problem(db_file) == "not an SQLite database (header overwritten or file cut short)"
    )


def test_a_fifo_where_the_database_belongs_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "sleepd.db"
    os.mkfifo(fifo)
    code = (
        "import sys; from pathlib import Path\n"
        "from sleepd.store.integrity import header_problem\n"
        "print(header_problem(Path(sys.argv[1])))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.startswith("cannot read it"), done
