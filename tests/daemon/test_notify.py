"""sd_notify datagrams, received on a real socket the way systemd would."""

from __future__ import annotations

import os
import socket
import uuid
from pathlib import Path

import pytest

from sleepd.daemon.notify import Notifier


def _receiver(address: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(2)
    return sock


def test_ready_status_watchdog_stopping_on_a_path_socket(tmp_path: Path) -> None:
    address = str(tmp_path / "notify.sock")
    with _receiver(address) as sock:
        notifier = Notifier(address)
        assert notifier.ready("started; watch inotify")
        ready = sock.recv(4096).decode().split("\n")
        assert ready[0] == "READY=1"
        assert f"MAINPID={os.getpid()}" in ready
        assert "STATUS=started; watch inotify" in ready
        assert notifier.status("night\nrunning")
        assert sock.recv(4096) == b"STATUS=night running"  # one line, always
        assert notifier.watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"
        assert notifier.stopping()
        assert sock.recv(4096) == b"STOPPING=1"
        notifier.close()


@pytest.mark.skipif(os.uname().sysname != "Linux", reason="abstract sockets are Linux-only")
def test_abstract_namespace_socket() -> None:
    name = f"sleepd-test-{uuid.uuid4().hex}"
    with _receiver("\0" + name) as sock:
        assert Notifier("@" + name).watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_no_socket_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = Notifier.from_env()
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog_interval_s() is None


def test_unreachable_socket_never_raises(tmp_path: Path) -> None:
    assert Notifier(str(tmp_path / "missing.sock")).ready() is False


def test_watchdog_interval_is_half_the_timeout_and_env_is_hidden(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "n.sock"))
    monkeypatch.setenv("WATCHDOG_USEC", "180000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    notifier = Notifier.from_env(unset=True)
    assert notifier.watchdog_interval_s() == 90.0
    assert "NOTIFY_SOCKET" not in os.environ  # child processes must not inherit it
    assert "WATCHDOG_USEC" not in os.environ


def test_watchdog_meant_for_another_pid_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert Notifier.from_env().watchdog_interval_s() is None
