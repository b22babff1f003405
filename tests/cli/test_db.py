"""`sleepd db`: upgrade, current, check; never behind a running daemon's back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from cli_here import Ran, sleepd_here
from sqlalchemy import text

from sleepd.daemon.lock import DaemonLock
from sleepd.paths import lock_file
from sleepd.store.engine import make_engine
from sleepd.store.schema_version import HEAD_REVISION


def sleepd(*args: str) -> Ran:
    return sleepd_here(*args)


def sleepd_process(*args: str) -> subprocess.CompletedProcess[str]:
    """`sleepd ARGS` in a process of its own (a lock this process holds is another's)."""
    return subprocess.run(
        [sys.executable, "-c", "from sleepd.cli.app import main; main()", *args],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )


def test_upgrade_then_check_and_current(isolated_home: Path) -> None:
    up = sleepd("db", "upgrade")
    assert up.returncode == 0, up.stderr
    assert "upgraded" in up.stderr
    assert sleepd("db", "check").returncode == 0
    current = sleepd("db", "current", "--json")
    assert '"at_head": true' in current.stdout
    again = sleepd("db", "upgrade")
    assert "already at" in again.stderr


def test_upgrade_is_refused_while_the_daemon_holds_the_lock(isolated_home: Path) -> None:
    lock_file().parent.mkdir(parents=True, exist_ok=True)
    lock = DaemonLock(lock_file())
    lock.acquire()
    try:
        proc = sleepd_process("db", "upgrade")
    finally:
        lock.release()
    assert proc.returncode == 6
    assert f"pid {os.getpid()}" in proc.stderr
    assert proc.stderr.strip().count("\n") == 0


def test_commands_refuse_a_database_behind_head_and_say_how_to_upgrade(db_engine: Any) -> None:
    with db_engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0000'"))
    proc = sleepd("search", "anything")
    assert proc.returncode == 5
    assert "sleepd db upgrade" in proc.stderr
    assert "Traceback" not in proc.stderr
    status = sleepd("status", "--json")
    assert status.returncode == 0
    assert "run `sleepd db upgrade`" in status.stdout
    check = sleepd("db", "check")
    assert check.returncode == 5


def test_harvest_initialises_a_brand_new_database(isolated_home: Path) -> None:
    proc = sleepd("harvest", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "initialised database" in proc.stderr
    engine = make_engine(f"sqlite:///{isolated_home / 'sleepd-home' / 'sleepd.db'}")
    with engine.connect() as conn:
        assert (
            conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD_REVISION
        )
