"""The single-writer lock of a SQLite store: one holder on the machine, a bounded wait,
and no stale lock left by a killed holder."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sleepd.store.locks import hold

LOCK_FILE = "test.lock"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SLEEPD_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_a_held_lock_is_refused_and_free_again_after_release() -> None:
    with hold(None, "harvest:x", LOCK_FILE, 0) as first:
        assert first
        with hold(None, "harvest:x", LOCK_FILE, 0) as second:
            assert not second
    with hold(None, "harvest:x", LOCK_FILE, 0) as again:
        assert again


def test_the_wait_is_bounded() -> None:
    with hold(None, "harvest:x", LOCK_FILE, 0):
        started = time.monotonic()
        with hold(None, "harvest:x", LOCK_FILE, 0.2) as taken:
            waited = time.monotonic() - started
        assert not taken
        assert waited >= 0.2


def test_a_waiter_takes_the_lock_once_the_holder_lets_go() -> None:
    holding, release = threading.Event(), threading.Event()
    outcome: list[bool] = []

    def holder() -> None:
        with hold(None, "harvest:x", LOCK_FILE, 0) as taken:
            assert taken
            holding.set()
            release.wait(30)

    def waiter() -> None:
        with hold(None, "harvest:x", LOCK_FILE, 30) as taken:
            outcome.append(taken)

    first = threading.Thread(target=holder)
    first.start()
    assert holding.wait(30)
    second = threading.Thread(target=waiter)
    second.start()
    release.set()
    first.join(30)
    second.join(30)
    assert outcome == [True]


def test_a_killed_holder_leaves_no_lock(_home: Path) -> None:
    code = (
        "import sys, time\n"
        "from sleepd.store.locks import hold\n"
        f"with hold(None, 'harvest:x', {LOCK_FILE!r}, 0) as taken:\n"
        "    print('locked' if taken else 'refused', flush=True)\n"
        "    time.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"locked"
        with hold(None, "harvest:x", LOCK_FILE, 0) as taken:
            assert not taken  # another process holds it
    finally:
        proc.kill()
        proc.wait()
    with hold(None, "harvest:x", LOCK_FILE, 0) as taken:
        assert taken  # the kernel dropped it with the process
    assert (_home / LOCK_FILE).exists()
