"""One daemon per SLEEPD_HOME: an fcntl lock on a file that names its holder.

`flock` is released by the kernel when the holder dies, so a crash never leaves
a stale lock behind; the pid inside the file is only for messages.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from pathlib import Path

from sleepd import paths
from sleepd.errors import LockedError


def _read_pid(path: Path, wait_s: float = 0.5) -> int | None:
    """The pid written by the holder (it writes right after locking, so allow a moment)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            text = path.read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            text = ""
        if text.isdigit():
            return int(text)
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.02)


class DaemonLock:
    """An exclusive, non-blocking lock; `acquire` raises LockedError naming the holder."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.lock_file()
        self._fd: int | None = None

    def acquire(self) -> None:
        paths.ensure_private_dir(self.path.parent)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            pid = _read_pid(self.path)
            who = f"pid {pid}" if pid is not None else "unknown pid"
            raise LockedError(
                f"another sleepd daemon is already running ({who}; lock {self.path})"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        os.fsync(fd)
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
        os.close(self._fd)  # closing drops the flock
        self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> DaemonLock:
        self.acquire()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


def daemon_lock_holder(path: Path | None = None) -> int | None:
    """The pid of a live daemon holding the lock, or None when nobody holds it.

    A probe lock on a fresh descriptor conflicts even with a holder in this very
    process (flock locks belong to open file descriptions), so the daemon itself
    is reported too.
    """
    path = path or paths.lock_file()
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(path)
            return pid if pid is not None else 0
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
