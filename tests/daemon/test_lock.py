"""Single instance: the lock names its holder and dies with it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sleepd.daemon.lock import DaemonLock, daemon_lock_holder
from sleepd.errors import ExitCode, LockedError


def test_no_holder_without_a_lock_file(tmp_path: Path) -> None:
    assert daemon_lock_holder(tmp_path / "daemon.lock") is None


def test_holder_is_reported_and_second_lock_refused(tmp_path: Path) -> None:
    path = tmp_path / "daemon.lock"
    with DaemonLock(path):
        assert daemon_lock_holder(path) == os.getpid()
        with pytest.raises(LockedError) as info:
            DaemonLock(path).acquire()
        assert f"pid {os.getpid()}" in str(info.value)
        assert info.value.exit_code == ExitCode.LOCKED
    assert daemon_lock_holder(path) is None
    DaemonLock(path).acquire()  # free again after release


def test_lock_of_a_killed_process_is_free(tmp_path: Path) -> None:
    path = tmp_path / "daemon.lock"
    code = (
        "import sys,time; from pathlib import Path; from sleepd.daemon.lock import DaemonLock;"
        "DaemonLock(Path(sys.argv[1])).acquire(); print('locked', flush=True); time.sleep(60)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"locked"
        assert daemon_lock_holder(path) == proc.pid
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 5
    while daemon_lock_holder(path) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert daemon_lock_holder(path) is None  # the stale file holds no lock
    assert path.exists()
